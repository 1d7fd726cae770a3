package webpage

// Kind classifies why a fetch failed, so that a caller can answer with
// the right HTTP status: KindBadURL is the client's mistake (400),
// KindBlocked is refused by policy (403), the others are an upstream
// failure (502), and KindCanceled means the caller gave up.
type Kind string

const (
	KindBadURL           Kind = "bad-url"            // the URL is not an http(s) URL
	KindBlocked          Kind = "blocked"            // the policy forbids the address connected to
	KindTimeout          Kind = "timeout"            // Options.Timeout elapsed
	KindTooManyRedirects Kind = "too-many-redirects" // more than Options.MaxRedirects redirects
	KindStatus           Kind = "status"             // the final response was not 2xx
	KindNetwork          Kind = "network"            // DNS, connection, TLS or read failure
	KindCanceled         Kind = "canceled"           // the caller's context ended
)

// FetchError is the error of NormalizeURL and Fetch. Its message is meant
// for people (it is stored in the node as its error text), its Kind for
// programs.
type FetchError struct {
	Kind Kind
	// URL is the URL that was being fetched when the fetch failed: the
	// normalized URL, or the URL redirected to. Empty for KindBadURL.
	URL string
	// StatusCode and ContentType are those of the final response, when
	// there was one (KindStatus).
	StatusCode  int
	ContentType string
	// Msg is the message Error returns.
	Msg string
	// Err is the underlying error, if any: a context error for KindCanceled,
	// the transport's error for KindNetwork.
	Err error
}

func (e *FetchError) Error() string { return e.Msg }

// Unwrap returns the underlying error, so errors.Is(err, context.Canceled)
// works on a canceled fetch.
func (e *FetchError) Unwrap() error { return e.Err }
