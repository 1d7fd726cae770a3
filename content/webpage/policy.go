package webpage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// Policy says which addresses a fetch may connect to. The zero Policy
// allows only public addresses: a canvas server reachable from other
// machines must not become a way into the network it runs in (server-side
// request forgery). A server bound to loopback serves one developer, who
// wants to preview their own localhost:3000, and sets AllowPrivate.
//
// The policy is checked against the address actually connected to, for
// every connection, so neither a redirect nor a host name that resolves to
// an inner address (DNS rebinding) gets around it.
type Policy struct {
	// AllowPrivate allows every address.
	AllowPrivate bool
	// Allow lists exceptions: host names (matched against the URL's host,
	// case-insensitively, without a trailing dot), IP addresses and CIDR
	// prefixes ("10.0.0.0/8"), matched against the address connected to.
	Allow []string
}

// blockedRange is a range of addresses the zero Policy refuses, and why.
type blockedRange struct {
	prefix netip.Prefix
	what   string
}

// blockedRanges are the non-public ranges. IPv4-mapped IPv6 addresses are
// unmapped before they are compared.
var blockedRanges = func() []blockedRange {
	var rs []blockedRange
	for _, r := range []struct{ cidr, what string }{
		{"0.0.0.0/8", "an unspecified (\"this network\") address"},
		{"10.0.0.0/8", "a private address"},
		{"100.64.0.0/10", "a shared (carrier-grade NAT) address"},
		{"127.0.0.0/8", "a loopback address"},
		{"169.254.0.0/16", "a link-local address"},
		{"172.16.0.0/12", "a private address"},
		{"192.168.0.0/16", "a private address"},
		{"224.0.0.0/4", "a multicast address"},
		{"240.0.0.0/4", "a reserved address"},
		{"::/128", "an unspecified address"},
		{"::1/128", "a loopback address"},
		{"fc00::/7", "a private (unique local) address"},
		{"fe80::/10", "a link-local address"},
		{"ff00::/8", "a multicast address"},
	} {
		rs = append(rs, blockedRange{netip.MustParsePrefix(r.cidr), r.what})
	}
	return rs
}()

// compiledPolicy is a Policy with its Allow entries parsed.
type compiledPolicy struct {
	allowAll bool
	hosts    map[string]bool
	prefixes []netip.Prefix
}

// compile parses the Allow entries. An entry with a "/" must be a CIDR
// prefix; one that parses as an IP address is an address; anything else
// must look like a host name.
func (p Policy) compile() (*compiledPolicy, error) {
	c := &compiledPolicy{allowAll: p.AllowPrivate, hosts: map[string]bool{}}
	for _, entry := range p.Allow {
		e := strings.TrimSpace(entry)
		switch {
		case e == "":
			continue
		case strings.Contains(e, "/"):
			pfx, err := netip.ParsePrefix(e)
			if err != nil {
				return nil, fmt.Errorf("webpage: fetch allow entry %q is not a valid CIDR prefix: %w", entry, err)
			}
			c.prefixes = append(c.prefixes, pfx.Masked())
		default:
			if a, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
				a = a.Unmap().WithZone("")
				c.prefixes = append(c.prefixes, netip.PrefixFrom(a, a.BitLen()))
				continue
			}
			name := canonicalHost(e)
			if name == "" || strings.ContainsAny(name, " \t/:@?#[]") {
				return nil, fmt.Errorf("webpage: fetch allow entry %q is not a host name, IP address or CIDR prefix", entry)
			}
			c.hosts[name] = true
		}
	}
	return c, nil
}

func canonicalHost(h string) string { return strings.TrimSuffix(strings.ToLower(h), ".") }

// check returns a *blockedError when the policy forbids connecting to ip
// for a URL whose host is host.
func (c *compiledPolicy) check(host string, ip netip.Addr) error {
	if c.allowAll {
		return nil
	}
	ip = ip.Unmap().WithZone("")
	what := ""
	for _, r := range blockedRanges {
		if r.prefix.Contains(ip) {
			what = r.what
			break
		}
	}
	if what == "" || c.hosts[canonicalHost(host)] {
		return nil
	}
	for _, p := range c.prefixes {
		if p.Contains(ip) {
			return nil
		}
	}
	return &blockedError{host: host, addr: ip, what: what}
}

// blockedError is the error of a connection the policy refused.
type blockedError struct {
	host string
	addr netip.Addr
	what string
}

func (e *blockedError) Error() string {
	target, allow := e.addr.String(), "--fetch-allow "+e.addr.String()
	if h := canonicalHost(e.host); h != e.addr.String() && h != "" {
		target = fmt.Sprintf("%s (the address of %s)", e.addr, e.host)
		allow = "--fetch-allow " + h + " or " + allow
	}
	return fmt.Sprintf("Refused to connect to %s: it is %s, and this server only fetches public addresses; start it with %s to allow it.",
		target, e.what, allow)
}

// Resolver looks up the addresses of a host name. *net.Resolver is one;
// tests use their own to give loopback servers "public" names.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// dialer connects to the addresses of a host one after another, checking
// each address against the policy just before the connection is made.
type dialer struct {
	policy   *compiledPolicy
	resolver Resolver
}

func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = d.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("no addresses found for host %s", host)
		}
	}
	var firstErr error
	for _, a := range addrs {
		nd := net.Dialer{Control: d.control(host)}
		conn, err := nd.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// control is the net.Dialer hook that sees the address the socket is about
// to connect to, after every resolution.
func (d *dialer) control(host string) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("webpage: cannot check dial address %q: %w", address, err)
		}
		return d.policy.check(host, ap.Addr())
	}
}

func isBlocked(err error) bool {
	var be *blockedError
	return errors.As(err, &be)
}
