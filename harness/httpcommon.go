package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/reversa/moot/internal/humantime"
)

// rawTransport copies every response body into the call's raw stdout as
// the client reads it, so an HTTP call is as auditable as a CLI's. The raw
// copy is capped like a command's output, and a body that goes on past
// the read limit (one endless SSE line, a decompression bomb) fails the
// read, so neither memory nor the raw file grows without bound.
type rawTransport struct {
	base http.RoundTripper
	raw  io.Writer
	mu   sync.Mutex
	// limit is how many body bytes one call may read in all.
	limit int64
	read  int64
}

// errBodyTooLarge ends a read past the call's limit.
var errBodyTooLarge = errors.New("the server's response exceeded moot's size limit; the request was abandoned")

func (t *rawTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	resp.Body = &teeBody{rc: resp.Body, t: t}
	return resp, nil
}

func (t *rawTransport) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.raw == nil {
		return len(p), nil
	}
	return t.raw.Write(p)
}

// count adds n bytes read; false once the call's limit is passed.
func (t *rawTransport) count(n int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read += int64(n)
	return t.limit <= 0 || t.read <= t.limit
}

type teeBody struct {
	rc io.ReadCloser
	t  *rawTransport
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		_, _ = b.t.Write(p[:n])
		if !b.t.count(n) {
			return 0, errBodyTooLarge
		}
	}
	return n, err
}

func (b *teeBody) Close() error { return b.rc.Close() }

// httpReadFactor bounds what one HTTP call may read: the stream's framing
// (SSE lines, JSON per delta) around an answer of at most the output cap.
const httpReadFactor = 4

// httpClient is the client of one HTTP call: its own transport (proxies
// from the environment, no shared connections between calls, identity
// encoding: no gzip to inflate), the raw copy capped at outputCap, reads
// bounded at httpReadFactor×outputCap, and no timeout of its own (the
// call's context bounds it).
func httpClient(raw io.Writer, outputCap int64) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = 0
	tr.DisableCompression = true
	tr.MaxResponseHeaderBytes = 1 << 20
	var w io.Writer
	if raw != nil {
		w = &cappedWriter{w: raw, max: outputCap}
	}
	return &http.Client{Transport: &rawTransport{base: tr, raw: w, limit: httpReadFactor * outputCap}}
}

// deltaSink forwards streamed text without splitting UTF-8 sequences, and
// keeps the whole answer bounded by the output cap.
type deltaSink struct {
	on        func(string)
	body      strings.Builder
	carry     []byte
	cap       int64
	truncated bool
}

// add takes a piece of answer text; it reports false once the cap is hit.
func (d *deltaSink) add(s string) bool {
	if d.truncated {
		return false
	}
	if room := d.cap - int64(d.body.Len()); int64(len(s)) > room {
		s = s[:max(room, 0)]
		d.truncated = true
	}
	d.body.WriteString(s)
	if d.on != nil && s != "" {
		d.carry = append(d.carry, s...)
		cut := len(d.carry)
		for cut > 0 && !utf8.Valid(d.carry[:cut]) && len(d.carry)-cut < utf8.UTFMax {
			cut--
		}
		if cut > 0 {
			d.on(string(d.carry[:cut]))
			d.carry = append(d.carry[:0], d.carry[cut:]...)
		}
	}
	return !d.truncated
}

func (d *deltaSink) flush() {
	if d.on != nil && len(d.carry) > 0 {
		d.on(string(d.carry))
		d.carry = nil
	}
}

// failed ends a call that failed half-way: what streamed so far is kept
// as the (partial) body.
func (d *deltaSink) failed(r Result) Result {
	d.flush()
	r.Body = d.body.String()
	return r
}

// overCap ends a call whose answer passed the output cap.
func (d *deltaSink) overCap() Result {
	r := d.failed(errorf(FailEngine, "the answer exceeded the %d MiB cap; the request was abandoned", d.cap>>20))
	r.Truncated = true
	return r
}

// cut ends a call whose stream closed before the model said it was done
// (what shows it: the missing end marker): a transport failure when
// nothing came, else an engine failure (never retried).
func (d *deltaSink) cut(marker string) Result {
	f := FailTransport
	if d.body.Len() > 0 {
		f = FailEngine
	}
	return d.failed(errorf(f, "the stream ended before the model finished (no %s): the connection was cut", marker))
}

// httpFailure classifies an HTTP call's error: the deadline, a cancel, a
// status the server sent, or the network.
func httpFailure(ctx context.Context, timeout time.Duration, status int, msg string, gotText bool, err error) Result {
	if ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errCallTimeout) {
			return errorf(FailTimeout, "no answer within %s: the request was abandoned", humantime.Duration(timeout))
		}
		return errorf(FailEngine, "interrupted: %v", context.Cause(ctx))
	}
	f := FailEngine
	switch {
	case status > 0:
		f = classify(status, msg)
	case err != nil && isNetError(err):
		f = FailTransport
	case msg != "":
		f = classify(0, msg)
	}
	if f.Retryable() && gotText {
		f = FailEngine
	}
	text := msg
	if status > 0 {
		text = fmt.Sprintf("HTTP %d: %s", status, msg)
	}
	return errorf(f, "%s", oneLine(text))
}

// errCallTimeout is the cause of a call's context when its hard limit hits.
var errCallTimeout = errors.New("the call's time limit")

// callContext bounds an HTTP call by the request's timeout.
func callContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, timeout, errCallTimeout)
}

// isNetError reports whether an error is the network's: refused, reset,
// DNS, a dropped connection.
func isNetError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	var de *net.DNSError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.As(err, &de) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// oneLine keeps an error message to one bounded line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// netMessage describes a network error without the SDK's request dump.
func netMessage(err error) string {
	var de *net.DNSError
	var oe *net.OpError
	switch {
	case errors.As(err, &de):
		return "cannot resolve " + de.Name + " (DNS)"
	case errors.Is(err, syscall.ECONNREFUSED):
		if errors.As(err, &oe) && oe.Addr != nil {
			return "connection refused by " + oe.Addr.String() + " (is the server running?)"
		}
		return "connection refused (is the server running?)"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset by the server"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the server closed the connection before the answer was complete"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "network timeout"
	}
	return err.Error()
}

// apiKey is the key an HTTP engine sends: its api_key_env's value, else
// the vendor's usual variable.
func apiKey(e *EngineConfig, vendorVars ...string) (string, string) {
	if e.APIKeyEnv != "" {
		return os.Getenv(e.APIKeyEnv), e.APIKeyEnv
	}
	for _, v := range vendorVars {
		if k := os.Getenv(v); k != "" {
			return k, v
		}
	}
	return "", ""
}

// okResult makes the result of an HTTP call that ended well.
func okResult(d *deltaSink, in, out int) Result {
	d.flush()
	return Result{Body: d.body.String(), TokensIn: in, TokensOut: out, Truncated: d.truncated}
}

// estimateTokens is a conservative token count for sizing a context: about
// three bytes a token (real tokenizers give 3.5–4 on prose and code).
func estimateTokens(s string) int { return len(s)/3 + 1 }
