# known-gap: a format spec with a field on another line
def f(x=0):
    return x
name = "n"
s = f"""a
{f(1)!r:>{f(
10)}} b
{name=} c"""
