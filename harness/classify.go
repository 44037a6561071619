package harness

import (
	"strconv"
	"strings"

	"github.com/reversa/moot/internal/lazyre"
)

// statusRE finds an HTTP status in an error message: "401 Unauthorized",
// "status 429", "HTTP 500", "status code: 503", "API Error: 429".
var statusRE = lazyre.New(`(?i)(?:\b(?:status|http|code|error)\b[^0-9]{0,12}([45]\d\d)\b|\b([45]\d\d) (?:unauthorized|forbidden|bad request|not found|too many requests|internal server error|bad gateway|service unavailable|gateway timeout|overloaded))`)

// statusIn returns the HTTP status an error message names, or 0.
func statusIn(msg string) int {
	m := statusRE.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	s := m[1]
	if s == "" {
		s = m[2]
	}
	n, _ := strconv.Atoi(s)
	return n
}

// transportWords mark a failure to reach the model: the connection, DNS,
// or the service being busy — worth one automatic retry.
var transportWords = []string{
	"connection refused", "econnrefused", "enotfound", "eai_again", "getaddrinfo",
	"no such host", "dns", "connection reset", "econnreset", "socket hang up",
	"stream disconnected", "network", "fetch failed", "error sending request",
	"timed out", "etimedout", "unexpected eof", "broken pipe", "rate limit",
	"rate_limit", "overloaded", "too many requests", "service unavailable",
	"temporarily unavailable", "server error", "internal error", "high demand",
	"temporary error",
}

// engineWords mark a failure that a retry cannot fix: auth, a bad request,
// a model that does not exist, a refusal.
var engineWords = []string{
	"unauthorized", "invalid api key", "invalid_api_key", "incorrect api key",
	"authentication", "not logged in", "login", "permission", "forbidden",
	"invalid auth", "api key not valid", "quota", "billing", "model not found",
	"does not exist", "invalid_request", "bad request",
}

// classify decides what kind of failure a reported error is: by its HTTP
// status when known (401/403/400/404 never retried; 408/409/429/5xx are
// transport), else by its words.
func classify(status int, msg string) Failure {
	switch {
	case status == 408 || status == 409 || status == 425 || status == 429 || status >= 500:
		return FailTransport
	case status >= 400:
		return FailEngine
	}
	m := strings.ToLower(msg)
	for _, w := range engineWords {
		if strings.Contains(m, w) {
			return FailEngine
		}
	}
	for _, w := range transportWords {
		if strings.Contains(m, w) {
			return FailTransport
		}
	}
	return FailEngine
}
