package messages

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Code is a stable, machine-readable error code. Codes are contract: clients
// switch on them, while messages may be reworded between versions.
type Code string

// The error catalogue. Every error any surface renders carries one of these
// codes; surfaces never invent their own. Keep ErrorCatalog in sync.
const (
	CodeBadRequest          Code = "bad-request"
	CodeInvalidJSON         Code = "invalid-json"
	CodeInvalidInput        Code = "invalid-input"
	CodeNotFound            Code = "not-found"
	CodeRouteNotFound       Code = "route-not-found"
	CodeMethodNotAllowed    Code = "method-not-allowed"
	CodeRevisionConflict    Code = "revision-conflict"
	CodeIdempotencyMismatch Code = "idempotency-key-reused"
	CodeBodyTooLarge        Code = "body-too-large"
	CodeBatchFailed         Code = "batch-failed"
	CodeUnauthorized        Code = "unauthorized"
	CodeForbiddenHost       Code = "forbidden-host"
	CodeForbiddenOrigin     Code = "forbidden-origin"
	CodeTimeout             Code = "timeout"
	CodeStoreFailed         Code = "store-failed"
	CodeUnavailable         Code = "unavailable"
	CodeOverloaded          Code = "overloaded"
	CodeRateLimited         Code = "rate-limited"
	CodeInternal            Code = "internal"
	CodeLeaseHeld           Code = "lease-held"
	CodeApprovalRequired    Code = "approval-required"
	CodeToolExcluded        Code = "tool-excluded"
	CodeToolNotAllowed      Code = "tool-not-allowed"
	CodeWebviewInactive     Code = "webview-inactive"
	CodeWebviewFailed       Code = "webview-failed"
	CodeWebviewStartFailed  Code = "webview-start-failed"
	CodeWebviewUnsupported  Code = "webview-unsupported"
	CodeOutsideWorkspace    Code = "outside-workspace"
	CodeFileTooLarge        Code = "file-too-large"
	CodeFetchFailed         Code = "fetch-failed"
	CodeFetchBlocked        Code = "fetch-blocked"
	CodeLoopbackOnly        Code = "loopback-only"
	CodeAppFailed           Code = "app-failed"
	CodeAppSessionLimit     Code = "app-session-limit"
)

// ErrorSpec documents one catalogue entry.
type ErrorSpec struct {
	Code        Code
	Status      int
	Description string
}

// ErrorCatalog lists every error code with its HTTP status and meaning. It is
// the single source for docs/http-api.md's error table and for tests.
var ErrorCatalog = []ErrorSpec{
	{CodeBadRequest, http.StatusBadRequest, "The request is well-formed JSON but breaks an operation rule (missing field, unknown id in a secondary reference, duplicate edge, ...)."},
	{CodeInvalidJSON, http.StatusBadRequest, "The request body is not valid JSON, or not the JSON shape the route takes."},
	{CodeInvalidInput, http.StatusBadRequest, "A field has the wrong type; the message names the field."},
	{CodeNotFound, http.StatusNotFound, "The object named by the URL path does not exist."},
	{CodeRouteNotFound, http.StatusNotFound, "No route matches the path."},
	{CodeMethodNotAllowed, http.StatusMethodNotAllowed, "The path exists but not for this method."},
	{CodeRevisionConflict, http.StatusConflict, "ifRevision did not match the canvas revision; the body carries the current revision."},
	{CodeIdempotencyMismatch, http.StatusUnprocessableEntity, "An Idempotency-Key was reused for a different request."},
	{CodeBodyTooLarge, http.StatusRequestEntityTooLarge, "The request body exceeds the server's limit."},
	{CodeBatchFailed, http.StatusBadRequest, "A batch entry failed, so nothing in the batch was applied; failedIndex, failedCode and results say which and why."},
	{CodeUnauthorized, http.StatusUnauthorized, "The server requires a bearer token and the request had none or a wrong one."},
	{CodeForbiddenHost, http.StatusForbidden, "The Host header is not a name this server answers to (DNS-rebinding guard)."},
	{CodeForbiddenOrigin, http.StatusForbidden, "A state-changing request (a write, or a read that takes a lease) came from a browser page of another origin: another site or another port on this machine (CSRF guard)."},
	{CodeTimeout, http.StatusServiceUnavailable, "The operation did not finish before its deadline."},
	{CodeStoreFailed, http.StatusServiceUnavailable, "The durable store failed (for example fsync, disk full); writes are refused until a probe commit succeeds (the store retries with backoff), reads keep working."},
	{CodeUnavailable, http.StatusServiceUnavailable, "The server is shutting down or the canvas is not available."},
	{CodeOverloaded, http.StatusServiceUnavailable, "The canvas has as many writes in flight as it admits (serve --max-in-flight); retry after Retry-After (retryAfterMs)."},
	{CodeRateLimited, http.StatusTooManyRequests, "This agent (X-PMX-Agent or agentId) sent writes faster than its rate (serve --agent-rate); retry after Retry-After (retryAfterMs)."},
	{CodeInternal, http.StatusInternalServerError, "An unexpected failure inside the server; the canvas state is unchanged."},
	{CodeLeaseHeld, http.StatusConflict, "A steering message is leased to another consumer; mark it as that consumer or after the lease ends (leaseExpiresAt)."},
	{CodeApprovalRequired, http.StatusForbidden, "The AX policy requires approval for this command or interaction; approvalGate is the gate to resolve, after which the same call succeeds once."},
	{CodeToolExcluded, http.StatusForbidden, "The AX policy excludes this command or interaction type (tools.excluded)."},
	{CodeToolNotAllowed, http.StatusForbidden, "The AX policy has an allow-list (tools.allowed) that does not name this command or interaction type."},
	{CodeWebviewInactive, http.StatusBadRequest, "No automation webview session is running; start one first. The body carries the webview status."},
	{CodeWebviewFailed, http.StatusBadRequest, "An evaluate, resize or screenshot step failed: a page script threw, or the step timed out. The body carries the webview status."},
	{CodeWebviewStartFailed, http.StatusInternalServerError, "The browser could not start or load the workbench; lastError in the webview status says why."},
	{CodeOutsideWorkspace, http.StatusForbidden, "A file route's node names a file outside the workspace (or in its .pmx-canvas store); the message names the path. Request fields that do so are a 400 bad-request."},
	{CodeFileTooLarge, http.StatusRequestEntityTooLarge, "The workspace file is larger than a file route serves (64 MiB)."},
	{CodeFetchFailed, http.StatusBadGateway, "Fetching a webpage node's page failed (timeout, network error, non-2xx status, too many redirects); the message says why and the node is marked status:error."},
	{CodeFetchBlocked, http.StatusForbidden, "A server bound beyond loopback refused to fetch a loopback, private or link-local address (serve --fetch-allow names exceptions)."},
	{CodeLoopbackOnly, http.StatusForbidden, "The operation acts on the server's own machine (opening a browser window) and only a loopback-bound server performs it."},
	{CodeAppFailed, http.StatusBadGateway, "An external MCP app server could not be started or reached, or failed a request (the reference answered a generic 500); the message says why."},
	{CodeAppSessionLimit, http.StatusConflict, "The canvas has as many live MCP app sessions as it keeps (24); remove an app node first."},
	{CodeWebviewUnsupported, http.StatusNotImplemented, "No browser is installed for the automation webview (install chromium, or start the server with --webview-chrome-path)."},
}

// Error is the one error type every operation returns. Surfaces render it as
// HTTP status + {ok:false, error, code, ...Extra} or as an MCP isError result
// with the same message.
type Error struct {
	Status  int
	Code    Code
	Message string
	// Extra holds additional top-level keys of the error body, such as the
	// current revision on a revision conflict.
	Extra map[string]any
}

func (e *Error) Error() string { return e.Message }

// With returns a copy of e with one extra body key set.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Extra = make(map[string]any, len(e.Extra)+1)
	for k, v := range e.Extra {
		c.Extra[k] = v
	}
	c.Extra[key] = value
	return &c
}

// Body renders the error as the JSON object every surface sends.
func (e *Error) Body() map[string]any {
	body := make(map[string]any, len(e.Extra)+3)
	for k, v := range e.Extra {
		body[k] = v
	}
	body["ok"] = false
	body["error"] = e.Message
	body["code"] = string(e.Code)
	return body
}

func newError(status int, code Code, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Status: status, Code: code, Message: msg}
}

// BadRequest reports a rule violation (400 bad-request).
func BadRequest(format string, args ...any) *Error {
	return newError(http.StatusBadRequest, CodeBadRequest, format, args...)
}

// InvalidInput reports a field of the wrong type or shape (400 invalid-input).
func InvalidInput(format string, args ...any) *Error {
	return newError(http.StatusBadRequest, CodeInvalidInput, format, args...)
}

// InvalidJSON reports an unparsable body (400 invalid-json).
func InvalidJSON(format string, args ...any) *Error {
	return newError(http.StatusBadRequest, CodeInvalidJSON, format, args...)
}

// NotFound reports a missing primary object (404 not-found).
func NotFound(format string, args ...any) *Error {
	return newError(http.StatusNotFound, CodeNotFound, format, args...)
}

// RevisionConflict reports a failed ifRevision precondition (409).
func RevisionConflict(want, have uint64) *Error {
	return newError(http.StatusConflict, CodeRevisionConflict,
		"canvas is at revision %d, not %d; re-read and retry", have, want).With("revision", have)
}

// IdempotencyMismatch reports a key reused for another request (422).
func IdempotencyMismatch(key string) *Error {
	return newError(http.StatusUnprocessableEntity, CodeIdempotencyMismatch,
		"Idempotency-Key %q was already used for a different request", key)
}

// Timeout reports an operation that missed its deadline (503 timeout).
func Timeout(op string) *Error {
	return newError(http.StatusServiceUnavailable, CodeTimeout, "%s did not finish before its deadline; it may still be applied, so retry with the same Idempotency-Key", op)
}

// Expired reports a write whose deadline passed while it waited for its
// owner: it was not applied (503 timeout, applied:false).
func Expired(op string) *Error {
	return newError(http.StatusServiceUnavailable, CodeTimeout, "%s was not applied: its deadline passed while it waited in the canvas's queue", op).With("applied", false)
}

// StoreFailed reports that durable storage is broken (503 store-failed).
func StoreFailed(cause error) *Error {
	return newError(http.StatusServiceUnavailable, CodeStoreFailed,
		"durable store failed, writes are refused until it works again (reads are served): %v", cause)
}

// Unavailable reports a canvas or server that cannot take requests (503).
func Unavailable(format string, args ...any) *Error {
	return newError(http.StatusServiceUnavailable, CodeUnavailable, format, args...)
}

// Overloaded reports a canvas at its in-flight cap (503 overloaded); the
// client may retry after retryAfter.
func Overloaded(retryAfter time.Duration, format string, args ...any) *Error {
	return newError(http.StatusServiceUnavailable, CodeOverloaded, format, args...).With(RetryAfterKey, retryAfter.Milliseconds())
}

// RateLimited reports an agent over its write rate (429 rate-limited); the
// client may retry after retryAfter.
func RateLimited(retryAfter time.Duration, format string, args ...any) *Error {
	return newError(http.StatusTooManyRequests, CodeRateLimited, format, args...).With(RetryAfterKey, retryAfter.Milliseconds())
}

// RetryAfterKey is the error body key (milliseconds) that HTTP also sends
// as the Retry-After header (whole seconds, rounded up).
const RetryAfterKey = "retryAfterMs"

// Internal reports an unexpected failure (500 internal).
func Internal(format string, args ...any) *Error {
	return newError(http.StatusInternalServerError, CodeInternal, format, args...)
}

// Make returns an Error for any catalogue code with its catalogued status.
func Make(code Code, format string, args ...any) *Error {
	for _, spec := range ErrorCatalog {
		if spec.Code == code {
			return newError(spec.Status, code, format, args...)
		}
	}
	return newError(http.StatusInternalServerError, CodeInternal, format, args...)
}

// AsError converts any error to *Error; unknown errors become 500 internal
// with a generic message so internals never leak to clients.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Internal("Internal error processing the request.")
}
