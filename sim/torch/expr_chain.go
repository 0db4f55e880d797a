package torch

// exprChain evaluates a C++ full-expression of a backward formula step by
// step: every intermediate tensor lives until the whole expression is done
// and then dies newest first, as C++ destroys temporaries. Steps after a
// failed one are skipped, so a formula can be written as a straight list
// of calls without checking each error.
type exprChain struct {
	ts  []*Tensor
	err error
}

// then runs f unless an earlier step failed and keeps its result as a
// temporary (nil after a failure).
func (c *exprChain) then(f func() (*Tensor, error)) *Tensor {
	if c.err != nil {
		return nil
	}
	t, err := f()
	if err != nil {
		c.err = err
		return nil
	}
	c.ts = append(c.ts, t)
	return t
}

// result hands over the last step's tensor and releases the other
// temporaries, newest first.
func (c *exprChain) result() (*Tensor, error) {
	if c.err != nil || len(c.ts) == 0 {
		c.release()
		if c.err == nil {
			c.err = Errorf(RuntimeError, "internal: empty expression")
		}
		return nil, c.err
	}
	last := c.ts[len(c.ts)-1]
	c.ts = c.ts[:len(c.ts)-1]
	c.release()
	return last, nil
}

// release drops every temporary, newest first.
func (c *exprChain) release() {
	for i := len(c.ts) - 1; i >= 0; i-- {
		c.ts[i].Release()
	}
	c.ts = nil
}
