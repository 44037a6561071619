package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"
)

// Identity is what an engine is, beyond its name: the fields a debate
// locks so that a resume is answered by the same program and model.
type Identity struct {
	Kind  string
	Model string
	// Host is the endpoint's host (with its port) when a base_url is set.
	Host string
	// ArgvSHA256 is the digest of a command engine's argv (placeholders
	// unexpanded), NUL-separated.
	ArgvSHA256 string
}

// IdentityOf returns an engine's identity.
func IdentityOf(e *EngineConfig) Identity {
	id := Identity{Kind: string(e.Kind), Model: e.Model}
	if e.BaseURL != "" {
		if u, err := url.Parse(e.BaseURL); err == nil && u.Host != "" {
			id.Host = u.Host
		} else {
			id.Host = e.BaseURL
		}
	}
	if e.Kind == KindCommand {
		sum := sha256.Sum256([]byte(strings.Join(e.Command, "\x00")))
		id.ArgvSHA256 = hex.EncodeToString(sum[:])
	}
	return id
}

// Fields lists the identity's non-empty fields in the order they are
// written: kind, model, host, argv_sha256.
func (i Identity) Fields() [][2]string {
	var out [][2]string
	for _, kv := range [][2]string{{"kind", i.Kind}, {"model", i.Model}, {"host", i.Host}, {"argv_sha256", i.ArgvSHA256}} {
		if kv[1] != "" {
			out = append(out, kv)
		}
	}
	return out
}

// Map returns the identity as field → value (empty fields left out).
func (i Identity) Map() map[string]string {
	m := map[string]string{}
	for _, kv := range i.Fields() {
		m[kv[0]] = kv[1]
	}
	return m
}
