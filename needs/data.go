package needs

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/internal/safefile"
)

// readData reads the settings that hold data rather than model: what a
// needimport key stands for (import_keys), the names filters read besides
// a need's fields (filter_data) and the variant data that "<{ var.x }>"
// references read (variant_data, variant_data_file).
func readData(path string, data []byte, un *ubNeeds, n *Project) error {
	fail := func(key, format string, args ...any) error {
		return &cfgfile.Error{File: path, Line: cfgfile.LineOfKey(data, key), Msg: fmt.Sprintf(format, args...)}
	}
	if len(un.ImportKeys) > 0 {
		n.ImportKeys = maps.Clone(un.ImportKeys)
	}
	if len(un.FilterData) > 0 {
		n.FilterData = map[string]any{}
		for _, k := range slices.Sorted(maps.Keys(un.FilterData)) {
			v, ok := FilterValue(un.FilterData[k])
			if !ok {
				return fail("filter_data", "[needs] filter_data %q: a value seg cannot read (strings, numbers, booleans, None, and lists or dicts of them)", k)
			}
			n.FilterData[k] = v
		}
	}
	vd := map[string]any{}
	known := true
	if un.VariantDataFile != nil && *un.VariantDataFile != "" {
		// A build may pass another file (sphinx-build -D); seg reads the
		// one the configuration names, from the folder of the file that
		// names it.
		file := *un.VariantDataFile
		if !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
		}
		known = false
		if raw, err := safefile.Read(file); err == nil {
			var m map[string]any
			if json.Unmarshal(raw, &m) == nil {
				vd, known = m, true
			}
		}
	}
	if known {
		for k, v := range un.VariantData {
			vd[k] = mergeData(vd[k], v)
		}
		plain, ok := FilterValue(vd)
		if !ok {
			return fail("variant_data", "[needs] variant_data: a value seg cannot read (strings, numbers, booleans, and lists or tables of them)")
		}
		n.VariantData, n.VariantKnown = plain.(map[string]any), true
	}
	return nil
}

// mergeData merges override into base as sphinx-needs merges inline
// variant data over the file's: tables key by key, anything else replaced.
func mergeData(base, override any) any {
	b, bok := base.(map[string]any)
	o, ook := override.(map[string]any)
	if !bok || !ook {
		return override
	}
	out := maps.Clone(b)
	for k, v := range o {
		out[k] = mergeData(out[k], v)
	}
	return out
}

// FilterValue turns a configuration value (from TOML, JSON or a Python
// literal in conf.py) into a value filters compute with: strings, int64,
// float64, bool, nil, []any and map[string]any of them. ok is false for
// anything else.
func FilterValue(v any) (any, bool) {
	switch x := v.(type) {
	case nil, string, bool, int64, float64:
		return x, true
	case int:
		return int64(x), true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var ok bool
			if out[i], ok = FilterValue(e); !ok {
				return nil, false
			}
		}
		return out, true
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i], _ = FilterValue(e)
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var ok bool
			if out[k], ok = FilterValue(e); !ok {
				return nil, false
			}
		}
		return out, true
	case *pyDict:
		out := make(map[string]any, len(x.vals))
		for k, e := range x.vals {
			var ok bool
			if out[k], ok = FilterValue(e); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// Variant resolves a variant data reference, the text between "<{" and
// "}>" ("var.a.b"), as sphinx-needs does: a dotted path from var to a leaf
// of the variant data. The error says why it does not resolve.
func (n *Project) Variant(expr string) (any, error) {
	segs := strings.Split(strings.TrimSpace(expr), ".")
	for i := range segs {
		segs[i] = strings.TrimSpace(segs[i])
	}
	if len(segs) < 2 || segs[0] != "var" || slices.Contains(segs, "") {
		return nil, fmt.Errorf("variant data reference %q is not a dotted var.* path", strings.TrimSpace(expr))
	}
	var cur any = n.VariantData
	for i, s := range segs[1:] {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("var.%s is not a table", strings.Join(segs[1:i+1], "."))
		}
		if cur, ok = m[s]; !ok {
			return nil, fmt.Errorf("unknown variant data key var.%s", strings.Join(segs[1:i+2], "."))
		}
	}
	if _, ok := cur.(map[string]any); ok {
		return nil, fmt.Errorf("var.%s is a table, not a value", strings.Join(segs[1:], "."))
	}
	return cur, nil
}
