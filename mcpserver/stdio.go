package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxMessage bounds one message on stdin, as the SDK's stdio transport
// does (mcp.DefaultMaxLineLength).
const maxMessage = 16 << 20

// The SDK's stdio transport ends the session, and `moot mcp` with it, on
// the first line it cannot decode. A client's malformed line must cost
// that line only: guardedStdio passes the SDK the lines that are JSON-RPC
// messages and answers every other one itself, with JSON-RPC's parse
// error (-32700) or invalid request (-32600), as the specification asks.

// lockedWriter writes whole lines: the SDK's messages and the answers to
// malformed lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// guardedStdio wraps the server's input and output for mcp.IOTransport.
func guardedStdio(in io.Reader, out io.Writer) (io.ReadCloser, io.WriteCloser) {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64*1024)
		for {
			line, tooLong, err := readLine(r, maxMessage)
			if tooLong {
				_, _ = w.Write(rpcError(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes: ignored", maxMessage)))
			} else if len(bytes.TrimSpace(line)) > 0 {
				if reply := malformed(line); reply != nil {
					_, _ = w.Write(reply)
				} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return // the server closed its input
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr, w
}

// readLine reads one line without its newline; a line over limit is
// read to its end and dropped (tooLong).
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// malformed is the answer to a line that is not a JSON-RPC message, or
// nil for a message the SDK can read.
func malformed(line []byte) []byte {
	if !json.Valid(line) {
		return rpcError(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON; it was ignored")
	}
	if t := bytes.TrimSpace(line); t[0] == '[' {
		return rpcError(nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send one message a line")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var m struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(line, &m)
		id := m.ID
		switch id.(type) {
		case string, float64:
		default:
			id = nil
		}
		return rpcError(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return nil
}

// rpcError is a JSON-RPC error response line.
func rpcError(id any, code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
