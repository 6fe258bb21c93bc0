package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// encode streams top-level arrays; its bytes must equal what one
// json.Encoder call writes for the whole value.
func TestEncodeMatchesEncoder(t *testing.T) {
	type inner struct {
		A string   `json:"a"`
		B []int    `json:"b"`
		C *int     `json:"c,omitempty"`
		D []string `json:"d"`
	}
	type doc struct {
		Name    string            `json:"name"`
		Items   []inner           `json:"items"`
		Empty   []inner           `json:"empty"`
		Nil     []inner           `json:"nil"`
		Omitted []inner           `json:"omitted,omitempty"`
		Map     map[string]string `json:"map"`
		Count   int               `json:"count,omitempty"`
		HTML    string            `json:"html"`
		Zero    inner             `json:"zero,omitempty"`
		Flag    bool              `json:"flag,omitempty"`
		hidden  int
	}
	one := 1
	cases := []any{
		doc{Name: "x", Items: []inner{{A: "<&>", B: []int{1, 2}, C: &one}, {D: []string{}}}, Empty: []inner{}, Map: map[string]string{"b": "1", "a": "2"}, HTML: "a<b"},
		&doc{},
		struct{}{},
		[]int{1, 2},
	}
	for _, c := range cases {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := encode(&got, c); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("encode(%T) differs from json.Encoder (-want +got):\n%s", c, diff)
		}
	}
}
