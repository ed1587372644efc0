package cmd

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/mcp"
)

// mcpTokenEnv names the variable that sets the --http bearer token.
const mcpTokenEnv = "JOBTOP_MCP_TOKEN"

// minMCPToken is the fewest characters a token of $JOBTOP_MCP_TOKEN may
// have: a shorter one is refused, as a guessable one.
const minMCPToken = 16

func newMCPCmd() *cobra.Command {
	var httpAddr string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve jobtop's tools to a coding agent over MCP (stdio)",
		Long: `Serve jobtop to a coding agent (Claude Code, Codex, Cursor, any MCP
client) as an MCP server on stdin/stdout. Its tools run jobs in the jobtop
instance on the socket (--socket, $JOBTOP_SOCKET, the default), so the
person sees them in their jobtop TUI: run_job, list_jobs, job_status,
read_output, wait_job, search_output, send_input, read_screen, stop_job,
kill_job, restart_job, remove_job. If no instance is listening when the agent starts a job, a
background "jobtop serve --no-file" is started on the socket, as jobtop run
does.

With --http ADDR it serves MCP's streamable HTTP on ADDR instead, which must
be a loopback address (127.0.0.1:PORT, [::1]:PORT or localhost:PORT); every
request must carry "Authorization: Bearer TOKEN", the token being
$` + mcpTokenEnv + `, or else one made up and printed on stderr.`,
		Example: `  claude mcp add jobtop -- jobtop mcp
  jobtop mcp --http 127.0.0.1:8765`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c := newStartingClient(cmd)
			opts := mcp.Options{Client: c, Version: versionText()}
			if c.Host() == nil {
				// On a host, dial-stdio starts the instance.
				opts.EnsureInstance = func(ctx context.Context) error {
					ours, err := autoStartServer(ctx, cmd, c)
					if err == nil {
						tellPreviousEnd(ctx, cmd, c, ours)
					}
					return err
				}
				// Jobs start as from the agent's shell, as jobtop run's do
				// (too large an environment: without its largest variables).
				var left []string
				if opts.Environ, left = control.CallerEnviron(); len(left) > 0 {
					fmt.Fprintln(cmd.ErrOrStderr(), "jobtop mcp:", environLeftOut(left))
				}
			}
			srv := mcp.New(opts)
			if httpAddr != "" {
				return serveMCPHTTP(cmd, srv, httpAddr)
			}
			if err := srv.Run(cmd.Context(), mcp.StdioTransport()); err != nil {
				return fmt.Errorf("jobtop mcp speaks MCP on stdin and stdout (JSON-RPC, one message a line), for an MCP client to start: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on `ADDR` (loopback only, with a bearer token) instead of stdio")
	return cmd
}

// serveMCPHTTP serves srv over streamable HTTP on a loopback address,
// behind a bearer token, until SIGINT or SIGTERM.
func serveMCPHTTP(cmd *cobra.Command, srv *sdk.Server, addr string) error {
	if err := checkLoopback(addr); err != nil {
		return &ExitError{Code: usageExit, Err: err}
	}
	token := os.Getenv(mcpTokenEnv)
	if why := weakToken(token); why != "" {
		return &ExitError{Code: usageExit, Err: fmt.Errorf("$%s %s, or any program on this machine could guess it; make one with `openssl rand -hex 16` (or leave $%s unset for one jobtop makes)",
			mcpTokenEnv, why, mcpTokenEnv)}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	if token == "" {
		token = rand.Text()
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop mcp: streamable HTTP on %s; send the header \"Authorization: Bearer %s\" (set $%s to choose the token)\n", url, token, mcpTokenEnv)
	} else {
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop mcp: streamable HTTP on %s; the bearer token is $%s\n", url, mcpTokenEnv)
	}
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", requireBearer(token, mcpHandler))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		hs.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// checkLoopback refuses an address other machines could reach.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: give HOST:PORT, e.g. 127.0.0.1:8765", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--http %q: jobtop mcp serves HTTP on loopback only (127.0.0.1, [::1] or localhost): its tools run commands", addr)
}

// requireBearer answers 401 to requests without "Authorization: Bearer
// token".
func requireBearer(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "jobtop mcp: missing or wrong bearer token (see the token jobtop mcp printed, or $"+mcpTokenEnv+")", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// minMCPTokenKinds is how many different characters a bearer token given
// by $JOBTOP_MCP_TOKEN must have: 16 a's, or 16 spaces, are as easy to
// guess as one (rev55); `openssl rand -hex 16` gives 32 of up to 16
// kinds.
const minMCPTokenKinds = 8

// weakToken says what makes a given bearer token too easy to guess, ""
// when nothing does (or none is given).
func weakToken(token string) string {
	if token == "" {
		return ""
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(token)); n < minMCPToken {
		return fmt.Sprintf("is %s (spaces around it not counted): a bearer token needs at least %d", plural(n, "character"), minMCPToken)
	}
	kinds := map[rune]bool{}
	for _, r := range strings.TrimSpace(token) {
		kinds[r] = true
	}
	if len(kinds) < minMCPTokenKinds {
		return fmt.Sprintf("has %s: a bearer token needs at least %d", plural(len(kinds), "different character"), minMCPTokenKinds)
	}
	return ""
}
