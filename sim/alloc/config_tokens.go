package alloc

import (
	"fmt"
	"strconv"
	"unicode"
)

// tokenize splits settings like PyTorch's ConfigTokenizer: ',', ':', '[' and
// ']' are tokens of their own, whitespace is dropped, anything else
// accumulates into a word.
func tokenize(s string) []string {
	var toks []string
	var buf []rune
	for _, r := range s {
		switch {
		case r == ',' || r == ':' || r == '[' || r == ']':
			if len(buf) > 0 {
				toks = append(toks, string(buf))
				buf = buf[:0]
			}
			toks = append(toks, string(r))
		case r < 0x80 && unicode.IsSpace(r):
		default:
			buf = append(buf, r)
		}
	}
	if len(buf) > 0 {
		toks = append(toks, string(buf))
	}
	return toks
}

// item is one `key:value` or `key:[k:v,…]` of the settings.
type item struct {
	key   string
	value string      // scalar value
	vidx  int         // token index of the scalar value
	list  bool        // the value was a bracketed list
	pairs [][2]string // list entries
}

// errIndex is the message PyTorch gives when the settings end early.
const errIndex = "Index out of bounds in ConfigTokenizer"

// splitItems checks the structure of the token list and groups it into items.
// Unlike PyTorch 2.9+, whose ConfigTokenizer::checkToken result is ignored (so
// a missing ':' or ',' slips through in some positions), separators are
// required; the message is that of the older parsers (2.1–2.7).
func splitItems(toks []string) ([]item, error) {
	var items []item
	expect := func(i int, tok, key string) error {
		if i >= len(toks) {
			return &ConfigError{key, errIndex}
		}
		if toks[i] != tok {
			return &ConfigError{key, "Error parsing CachingAllocator::AllocatorConfig settings, expected " + tok}
		}
		return nil
	}
	isSep := func(t string) bool { return t == "," || t == ":" || t == "[" || t == "]" }
	for i := 0; i < len(toks); i++ {
		key := toks[i]
		if isSep(key) {
			return nil, &ConfigError{"", fmt.Sprintf("Unrecognized key '%s' in CUDA allocator config.", key)}
		}
		if err := expect(i+1, ":", key); err != nil {
			return nil, err
		}
		i += 2
		if i >= len(toks) {
			return nil, &ConfigError{key, errIndex}
		}
		it := item{key: key}
		if toks[i] == "[" {
			it.list = true
			i++
			for {
				if i >= len(toks) {
					return nil, &ConfigError{key, "Expected closing bracket ']' in ConfigTokenizer but reached end of config"}
				}
				if toks[i] == "]" {
					break
				}
				k := toks[i]
				if isSep(k) {
					return nil, &ConfigError{key, "Error parsing roundup_power2_divisions value"}
				}
				if err := expect(i+1, ":", key); err != nil {
					return nil, err
				}
				if i+2 >= len(toks) {
					return nil, &ConfigError{key, errIndex}
				}
				v := toks[i+2]
				if isSep(v) {
					return nil, &ConfigError{key, "Error parsing roundup_power2_divisions value"}
				}
				it.pairs = append(it.pairs, [2]string{k, v})
				i += 3
				if i < len(toks) && toks[i] == "," {
					i++
				}
			}
		} else if isSep(toks[i]) {
			return nil, &ConfigError{key, fmt.Sprintf("Error, expecting %s value", key)}
		} else {
			it.value, it.vidx = toks[i], i
		}
		items = append(items, it)
		if i+1 < len(toks) {
			if err := expect(i+1, ",", key); err != nil {
				return nil, err
			}
			i++
		}
	}
	return items, nil
}

// scalar returns the item's single value.
func (it item) scalar() (string, error) {
	if it.list {
		return "", &ConfigError{it.key, fmt.Sprintf("Error, expecting %s value", it.key)}
	}
	return it.value, nil
}

// sizeT parses the value like std::stoull, restricted to plain decimal
// digits with an optional '+' (negative values, which stoull wraps around,
// are rejected).
func (it item) sizeT() (uint64, error) {
	v, err := it.scalar()
	if err != nil {
		return 0, err
	}
	return stoull(it.key, v)
}

// stoull parses a non-negative decimal integer.
func stoull(key, s string) (uint64, error) {
	t := s
	if len(t) > 0 && t[0] == '+' {
		t = t[1:]
	}
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, &ConfigError{key, fmt.Sprintf("invalid value '%s' for %s: expected a non-negative integer (stoull)", s, key)}
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, &ConfigError{key, fmt.Sprintf("value '%s' for %s is out of range (stoull)", s, key)}
		}
		return 0, &ConfigError{key, fmt.Sprintf("invalid value '%s' for %s: expected a non-negative integer (stoull)", s, key)}
	}
	return n, nil
}

// double parses the value as a decimal floating-point number (std::stod).
func (it item) double() (float64, error) {
	v, err := it.scalar()
	if err != nil {
		return 0, err
	}
	f, perr := strconv.ParseFloat(v, 64)
	if perr != nil {
		return 0, &ConfigError{it.key, fmt.Sprintf("invalid value '%s' for %s: expected a number (stod)", v, it.key)}
	}
	return f, nil
}

// boolean parses True/False exactly.
func (it item) boolean() (bool, error) {
	v, err := it.scalar()
	if err != nil {
		return false, err
	}
	switch v {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return false, &ConfigError{it.key, fmt.Sprintf("Expected 'True' or 'False' at index %d in ConfigTokenizer but got '%s'", it.vidx, v)}
}
