package bridge

import (
	"strings"

	"github.com/gpumem/playground/sim/alloc"
)

// ValidateConfig checks an allocator-settings value with the allocator's own
// parser and returns its message, or "" when the value is accepted. An empty
// or all-blank value means "no setting" and is accepted.
func ValidateConfig(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	if _, err := alloc.ParseConfig(s); err != nil {
		return err.Error()
	}
	return ""
}
