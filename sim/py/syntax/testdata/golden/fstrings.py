f"plain"
f"{x}"
f"{x!r} {y!s} {z!a}"
f"{x:>10} {y:{width}.{precision}f}"
f"{x=} {y = } {z=!s} {w=:10}"
f"{{literal}} }}{{"
rf"\d{x}" fr'{x}\n'
"prefix " f"{x}" " suffix"
f"{a['b']!r:^{w}}"
f"{3.14:.2f} {1e3:,}"
f"{a, b}"
f"""{
x
}"""
f"{x:}"
f"{d['k']}"
