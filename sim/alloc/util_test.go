package alloc

import (
	"strconv"
	"strings"
)

func fmtInt(n int64) string       { return strconv.FormatInt(n, 10) }
func contains(s, sub string) bool { return strings.Contains(s, sub) }
