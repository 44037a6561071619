package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// A malformed line costs that line only: the server answers it with
// JSON-RPC's parse error (or invalid request) and goes on serving; it
// used to end the session, and moot mcp with it (exit 1).
func TestAMalformedLineDoesNotEndTheServer(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, Options{Exe: "/nonexistent", Dir: t.TempDir(), Version: "test"}, inR, outW) }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatalf("the server stopped reading: %v", err)
		}
	}
	next := func() map[string]any {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server closed its output")
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %q", l)
			}
			return m
		case err := <-done:
			t.Fatalf("the server ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("no answer")
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, bad := range []struct{ line, code string }{
		{`{not json`, "-32700"}, {`[1,2]`, "-32600"}, {`{}`, "-32600"}, {`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "-32600"},
	} {
		send(bad.line)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || !strings.Contains(string(mustJSON(e["code"])), bad.code) {
			t.Errorf("%d: %s answered %v, want error %s", i, bad.line, m, bad.code)
		}
		send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		if m := next(); m["id"] != "p" || m["error"] != nil {
			t.Errorf("%d: after %s, ping answered %v", i, bad.line, m)
		}
	}
	_ = inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("at the end of input: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the server did not end with its input")
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
