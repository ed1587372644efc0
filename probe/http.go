package probe

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"jobtop/jobs"
)

// bodyPeek is how much of a failing answer's body its error shows.
const bodyPeek = 200

// transport is shared by every HTTP probe: no connection is kept between
// checks, so no idle connection (or its goroutines) outlives one.
var transport = &http.Transport{
	DisableKeepAlives: true,
	TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // dev servers' self-signed certificates; see the package doc
	Proxy:             nil,
}

var client = &http.Client{
	Transport: transport,
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// HTTP passes when a GET of URL answers with Status, or with any status
// from 200 to 399 when Status is 0.
type HTTP struct {
	URL    string
	Status int
	// Headers are sent with each request.
	Headers map[string]string
}

// NewHTTP checks the URL (http or https, with a host) and the status (0,
// or 100 to 599).
func NewHTTP(rawURL string, status int, headers map[string]string) (*HTTP, error) {
	u, err := url.Parse(rawURL)
	switch {
	case !strings.Contains(rawURL, "://"):
		return nil, fmt.Errorf("%q: the URL must start with http:// or https://", rawURL)
	case err != nil:
		return nil, fmt.Errorf("%q is not a URL: %v", rawURL, errors.Unwrap(err))
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: the URL must start with http:// or https://", rawURL)
	case u.Host == "":
		return nil, fmt.Errorf("%q has no host: write e.g. http://127.0.0.1:8080/healthz", rawURL)
	case status != 0 && (status < 100 || status > 599):
		return nil, fmt.Errorf("status %d is not an HTTP status (100-599)", status)
	}
	return &HTTP{URL: rawURL, Status: status, Headers: headers}, nil
}

// Check sends one GET.
func (h *HTTP) Check(ctx context.Context, _ jobs.ProbeTarget) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "jobtop-probe")
	for k, v := range h.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return fmt.Errorf("GET %s: %v", h.URL, err)
	}
	defer resp.Body.Close()
	if h.passes(resp.StatusCode) {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) //nolint:errcheck // draining only
		return nil
	}
	msg := fmt.Sprintf("GET %s: status %s", h.URL, resp.Status)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		return errors.New(msg) // an error page says nothing the status does not
	}
	peek, _ := io.ReadAll(io.LimitReader(resp.Body, bodyPeek))
	if body := oneLine(string(bytes.ToValidUTF8(peek, nil))); body != "" {
		msg += ": " + body
	}
	return errors.New(msg)
}

func (h *HTTP) passes(code int) bool {
	if h.Status != 0 {
		return code == h.Status
	}
	return code >= 200 && code < 400
}

// String is "http: URL", with the status when one is asked for.
func (h *HTTP) String() string {
	s := "http: " + h.URL
	if h.Status != 0 {
		s += fmt.Sprintf(" (status %d)", h.Status)
	}
	if len(h.Headers) > 0 {
		names := make([]string, 0, len(h.Headers))
		for k := range h.Headers {
			names = append(names, k)
		}
		sort.Strings(names)
		s += " (headers " + strings.Join(names, ", ") + ")"
	}
	return s
}

// oneLine squeezes text to one trimmed line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
