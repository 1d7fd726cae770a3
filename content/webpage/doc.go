// Package webpage fetches a web page for a "webpage" canvas node and says
// what it found: title, description, image, readable content and whether
// a browser may show the page in a frame.
//
// # API
//
//   - NormalizeURL validates a node's URL and returns its WHATWG
//     serialization ("example.com" → "https://example.com/").
//   - NewFetcher makes a Fetcher from Options; Fetcher.Fetch fetches a URL
//     and returns a *Snapshot. Fetch does both for a single fetch.
//   - Every error is a *FetchError whose Kind tells a bad URL (400) from a
//     refused address (403) and an upstream failure (502).
//
// # Fetching
//
// A fetch is one GET with the reference's Accept and User-Agent headers,
// following up to Options.MaxRedirects redirects (10), within
// Options.Timeout (10s; "Timed out after 10000ms while fetching <url>.").
// At most Options.MaxBytes (1 000 000) bytes of the body are read; a longer
// page is cut and Snapshot.Truncated set, and still succeeds. A non-2xx
// final response fails with "Request failed with 404 Not Found", its status
// and content type in the error.
//
// HTML is decoded from the charset of the Content-Type header, a BOM or a
// <meta> tag (golang.org/x/net/html/charset). The title is og:title, else
// twitter:title, else <title>; the description is meta description, else
// og:description, else twitter:description; the image is og:image, else
// twitter:image, resolved against the final URL. The content is the
// page's readable part (go-readability; the <main>, <article> or <body>
// if it finds none) as Markdown (html-to-markdown), at most 50 000
// characters; the excerpt is its first 420 characters as plain text.
// text/plain and text/markdown bodies are their own content; other types
// are not read and give an empty content.
//
// The reference stored plain text; this package stores Markdown so that
// headings, lists and links survive.
//
// # Addresses
//
// Options.Policy decides which addresses may be connected to, checked on
// every connection against the address actually dialed, so redirects and
// DNS answers cannot reach past it; proxies from the environment are not
// used. The zero Policy allows public addresses only, which is right for a
// server others can reach; a server bound to loopback sets AllowPrivate.
// Policy.Allow names exceptions by host name, IP address or CIDR prefix,
// and a refusal says so, naming the "--fetch-allow" flag that sets them.
//
// Options.Resolver replaces DNS; tests use it to give a loopback server a
// name that counts as public.
package webpage
