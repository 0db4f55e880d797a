package pickle

// doneEntry caches the conversion of a shared container: its final value and
// height. A nil entry value with inProgress set marks a container whose
// conversion has started, so meeting it again means a cycle.
type doneEntry struct {
	v          any
	height     int
	inProgress bool
}

// finisher converts the decoder's working representation (*plist, *ptuple)
// into the public value model ([]any, Tuple), enforcing MaxDepth and
// rejecting cycles and leftover GLOBAL references.
type finisher struct {
	d    *decoder
	done map[any]doneEntry
}

// finish converts the raw STOP result into the returned value.
func (d *decoder) finish(v any) (any, error) {
	d.opPos, d.op = -1, opStop
	f := finisher{d: d, done: make(map[any]doneEntry)}
	out, _, err := f.value(v, 1)
	return out, err
}

// fail reports a problem found in the finished value.
func (f *finisher) fail(kind error, msg string) error {
	return &DecodeError{Offset: -1, Kind: kind, Msg: msg}
}

// value converts v, a value at nesting depth depth (if it is a container),
// and returns the converted value and its height (0 for scalars).
func (f *finisher) value(v any, depth int) (any, int, error) {
	var shared bool
	switch x := v.(type) {
	case *plist:
		shared = x.shared
	case *ptuple:
		shared = x.shared
	case *Dict, *Set:
		shared = f.d.shared[x]
	case globalRef:
		return nil, 0, f.fail(ErrNotPlainData, "snapshot pickles contain only plain data; the result holds a reference to "+x.module+"."+x.name)
	default:
		return v, 0, nil
	}
	if depth > f.d.lim.MaxDepth {
		return nil, 0, f.fail(ErrLimit, "containers nested deeper than MaxDepth")
	}
	if shared {
		if e, ok := f.done[v]; ok {
			if e.inProgress {
				return nil, 0, f.fail(ErrMalformed, "recursive structure (a container contains itself)")
			}
			if depth-1+e.height > f.d.lim.MaxDepth {
				return nil, 0, f.fail(ErrLimit, "containers nested deeper than MaxDepth")
			}
			return e.v, e.height, nil
		}
		f.done[v] = doneEntry{inProgress: true}
	}
	out, h, err := f.container(v, depth)
	if err != nil {
		return nil, 0, err
	}
	if shared {
		f.done[v] = doneEntry{v: out, height: h}
	}
	return out, h, nil
}

// container converts the items of one container in place.
func (f *finisher) container(v any, depth int) (any, int, error) {
	h := 0
	conv := func(items []any) error {
		for i, it := range items {
			nv, ch, err := f.value(it, depth+1)
			if err != nil {
				return err
			}
			items[i] = nv
			h = max(h, ch)
		}
		return nil
	}
	switch x := v.(type) {
	case *plist:
		if err := conv(x.items); err != nil {
			return nil, 0, err
		}
		if x.items == nil {
			return []any{}, 1, nil
		}
		return x.items, h + 1, nil
	case *ptuple:
		if err := conv(x.items); err != nil {
			return nil, 0, err
		}
		if x.items == nil {
			return Tuple{}, 1, nil
		}
		return Tuple(x.items), h + 1, nil
	case *Dict:
		if err := conv(x.Keys); err != nil {
			return nil, 0, err
		}
		if err := conv(x.Values); err != nil {
			return nil, 0, err
		}
		return x, h + 1, nil
	case *Set:
		if err := conv(x.Items); err != nil {
			return nil, 0, err
		}
		return x, h + 1, nil
	}
	return v, 0, nil
}
