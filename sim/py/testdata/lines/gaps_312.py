# known-gap: annotations are not evaluated (NOTES.md)
def f(x=0):
    return x
def h(a: "int" = f(
        1), b: int = 2) -> (
        int):
    return a
h()
---
# known-gap
def f(x=0):
    return x
class K:
    a: int = (
        f(1))
    b: (
        int)
---
# known-gap: a format spec with a field on another line
def f(x=0):
    return x
name = "n"
s = f"""a
{f(1)!r:>{f(
10)}} b
{name=} c"""
