// Package strictjson holds the checks moot makes on the JSON an engine
// answers with (argue's scorer, a review's juror) beyond what
// encoding/json refuses.
package strictjson

import (
	"encoding/json"
	"strings"
)

// DuplicateKey finds a key given twice in one object of a JSON text, at
// any depth: encoding/json keeps the last, so {"verdict": "refuse",
// "verdict": "pass"} would decode as a pass. A text that is not JSON has
// none (the decoder says why).
func DuplicateKey(text string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	type object struct {
		seen   map[string]bool
		keyNow bool // the next string token is a key
	}
	var stack []*object
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		var top *object
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				if top != nil && !top.keyNow {
					top.keyNow = true // an object as a value: the parent's next token is a key
				}
				stack = append(stack, &object{seen: map[string]bool{}, keyNow: true})
				continue
			case '}':
				stack = stack[:len(stack)-1]
			case '[':
				stack = append(stack, nil)
				continue
			case ']':
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && stack[len(stack)-1] != nil {
				stack[len(stack)-1].keyNow = true
			}
		case string:
			if top != nil && top.keyNow {
				if top.seen[t] {
					return t, true
				}
				top.seen[t] = true
				top.keyNow = false
				continue
			}
			if top != nil {
				top.keyNow = true
			}
		default:
			if top != nil {
				top.keyNow = true
			}
		}
	}
}
