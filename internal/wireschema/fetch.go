package wireschema

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/outfile"
)

// DefaultBaseURL is where `schema fetch` downloads from: the specification
// repository's raw files at SpecCommit.
const DefaultBaseURL = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/" + SpecCommit

// maxSchemaSize bounds a download; the real files are under 200 KiB.
const maxSchemaSize = 8 << 20

// Fetch downloads schema/<rev>/schema.json for every pinned revision from
// baseURL into dir/<rev>/schema.json, refusing any file whose SHA-256 is not
// the pinned one, and returns the paths written.
func Fetch(ctx context.Context, client *http.Client, baseURL, dir string) ([]string, error) {
	revs := make([]string, 0, len(Pins))
	for rev := range Pins {
		revs = append(revs, rev)
	}
	sort.Strings(revs)
	var written []string
	for _, rev := range revs {
		path, err := fetchOne(ctx, client, strings.TrimSuffix(baseURL, "/"), dir, rev)
		if err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

func fetchOne(ctx context.Context, client *http.Client, baseURL, dir, rev string) (string, error) {
	url := baseURL + "/schema/" + rev + "/schema.json"
	data, err := download(ctx, client, url)
	if err != nil {
		return "", err
	}
	if err := CheckPin(rev, data); err != nil {
		return "", fmt.Errorf("%s: %w", url, err)
	}
	path := filepath.Join(dir, rev, "schema.json")
	if err := outfile.WriteFileAll(path, data); err != nil {
		return "", err
	}
	return path, nil
}

func download(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download %s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSchemaSize+1))
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	if len(data) > maxSchemaSize {
		return nil, fmt.Errorf("download %s: larger than %d bytes", url, maxSchemaSize)
	}
	return data, nil
}
