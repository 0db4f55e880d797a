package pyfmt

import "strings"

// formatTemplate is str.format's build_string: it renders template s at
// the given recursion depth (2 at top level), resolving fields lazily so
// that errors surface in CPython's order.
func formatTemplate[V any](s []rune, r Resolver[V], depth int, an *autoNumber) (string, error) {
	if depth <= 0 {
		return "", valueErr("Max string recursion exceeded")
	}
	it := &markupIter{s: s}
	var b strings.Builder
	for {
		m, ok, err := it.next()
		if err != nil {
			return "", err
		}
		if !ok {
			return b.String(), nil
		}
		b.WriteString(m.literal)
		if !m.hasField {
			continue
		}
		out, err := outputMarkup(&m, r, depth, an)
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
}

// outputMarkup resolves, converts and formats one field (output_markup).
func outputMarkup[V any](m *markup, r Resolver[V], depth int, an *autoNumber) (string, error) {
	key, _, rest, err := splitFirst(m.name, an)
	if err != nil {
		return "", err
	}
	obj, err := r.Arg(key)
	if err != nil {
		return "", err
	}
	for {
		part, remaining, ok, err := nextPart(rest)
		if err != nil {
			return "", err
		}
		if !ok {
			break
		}
		rest = remaining
		if part.IsAttr {
			obj, err = r.Attr(obj, part.Key.Name)
		} else {
			obj, err = r.Item(obj, part.Key)
		}
		if err != nil {
			return "", err
		}
	}
	if m.conversion != 0 {
		switch m.conversion {
		case 'r', 's', 'a':
			obj, err = r.Convert(obj, m.conversion)
			if err != nil {
				return "", err
			}
		default:
			if m.conversion > 32 && m.conversion < 127 {
				return "", valueErr("Unknown conversion specifier %c", m.conversion)
			}
			return "", valueErr("Unknown conversion specifier \\x%x", m.conversion)
		}
	}
	spec := string(m.spec)
	if m.specNeedsExpn {
		spec, err = formatTemplate(m.spec, r, depth-1, an)
		if err != nil {
			return "", err
		}
	}
	return r.Format(obj, spec)
}
