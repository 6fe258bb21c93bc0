package needs

import "strings"

// The syntax of link values (SplitLinks, IsFunction) is package model's:
// the parser splits values with it.

// VariantExpr is the expression of a variant data reference
// ("<{ var.links }>" holds "var.links"), without its "<{" and "}>".
func VariantExpr(target string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(target, "<{"), "}>"))
}

// Resolve finds the need an entry names in byID (need IDs to whatever the
// caller keeps): "ID.part" is the need "ID.part" when there is one (seg's
// own IDs may hold dots), else the need "ID" with the part kept, which
// seg does not check (it does not read :np: roles).
func Resolve[T any](id, part string, byID map[string]T) (to T, keptPart string, ok bool) {
	if part != "" {
		if to, ok = byID[id+"."+part]; ok {
			return to, "", true
		}
	}
	to, ok = byID[id]
	return to, part, ok
}
