package pyfmt

// fstringCases are f-string sources evaluated by CPython's compiler.
func fstringCases() []oracleCase {
	ns := tDict("x", tInt64(1), "y", tInt64(2), "z", tInt64(3), "s", tStr("héllo"), "f", tFloat(3.14159), "w", tInt64(10))
	srcs := []string{
		"f'{}'", "f'{ }'", "f'{!r}'", "f'{:x}'", "f'{=}'", "f'{x!}'", "f'{x!z}'", "f'{x!r'", "f'{x'", "f'{x:'",
		"f'}'", "f'{x}}'", "f'{{}}'", "f'{x:{y:{z}}}'", "f'{x#}'", "f'{(x}'", "f'{x)}'", "f'{(x]}'", "f'{x=!r:>5}'",
		"f'{x = }'", "f'{x=:>5}'", "f'{\"a\"}'", "f'{x:{y}}'", "f'{x:}}'", "f'{x:{{}}}'", "f'{\"}'", "f'{[}'",
		"f'{x:>{y}'", "f'{x!rr}'", "f'{x:=^5}'", "f'\\{x}'", "f'{x!r=}'", "f'{ x = !r}'", "f'{x:{y!r}}'",
		"f'{x:{y=}}'", "f'a{{b}}c{x}d'", "f'{s!r:^12}|{s!a}|{s:.2}'", "f'{f:{w}.{y}f}'", "f'{f=:.3}'", "f'{s=}'",
		"f'{x:{w}}{y:<{w}}|'", "rf'\\n{x}\\t'", "f'\\n{x}\\t'", "f'''{x}'''",
		"f'{x!s:{w}}'", "f'{x:{y}{z}}'", "f'{x:a{y}b}'", "f'{x\\n}'",
		"f'{x}{'", "f'{x:{'", "f'{{x}}'", "f'}}{{'", "f'{ \t}'", "f'{x=   }'", "f'{x= !s}'",
	}
	var cs []oracleCase
	for _, s := range srcs {
		cs = append(cs, oracleCase{Op: "fstring", A: []any{s, ns}})
	}
	return cs
}
