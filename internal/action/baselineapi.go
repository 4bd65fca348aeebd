package action

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/reporters"
)

// githubREST reads a repository's workflow runs and their artifacts
// through the GitHub REST API.
type githubREST struct {
	client              *http.Client
	apiURL, repo, token string
}

// maxArtifactZip bounds the artifact downloaded for its report.json: an
// output directory holds traces, which a long check makes large.
const maxArtifactZip = 512 << 20

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// foundBaseline is a report.json and where it came from.
type foundBaseline struct {
	report   []byte
	artifact string
	run      int64
}

// baselineReport finds the newest successful run of the workflow (of any,
// when the workflow is not known) on the branch, the artifact this job
// uploaded in it, and the report.json inside.
func (g githubREST) baselineReport(ctx context.Context, branch, workflow, job string) (foundBaseline, error) {
	runs := "/repos/" + g.repo + "/actions/runs"
	if workflow != "" {
		runs = "/repos/" + g.repo + "/actions/workflows/" + url.PathEscape(workflow) + "/runs"
	}
	var list struct {
		Runs []struct {
			ID int64 `json:"id"`
		} `json:"workflow_runs"`
	}
	q := url.Values{"branch": {branch}, "status": {"success"}, "per_page": {"1"}}
	if err := g.getJSON(ctx, runs+"?"+q.Encode(), &list); err != nil {
		return foundBaseline{}, err
	}
	if len(list.Runs) == 0 {
		return foundBaseline{}, errorf("no successful run of %s on %s", orAll(workflow), branch)
	}
	run := list.Runs[0].ID
	name, id, err := g.jobArtifact(ctx, run, job)
	if err != nil {
		return foundBaseline{}, err
	}
	zipped, err := g.download(ctx, fmt.Sprintf("/repos/%s/actions/artifacts/%d/zip", g.repo, id))
	if err != nil {
		return foundBaseline{}, err
	}
	report, err := reportInZip(zipped)
	if err != nil {
		return foundBaseline{}, fmt.Errorf("the artifact %q of run %d: %v", name, run, err)
	}
	return foundBaseline{report: report, artifact: name, run: run}, nil
}

func orAll(workflow string) string {
	if workflow == "" {
		return "any workflow"
	}
	return workflow
}

// attemptSuffix is what artifactName adds on a re-run job.
var attemptSuffix = regexp.MustCompile(`-attempt-[0-9]+$`)

// jobArtifact picks this job's report artifact of the run (artifactName):
// of several attempts the last; several servers (a matrix job) are not
// told apart, so they ask for a path instead.
func (g githubREST) jobArtifact(ctx context.Context, run int64, job string) (string, int64, error) {
	var list struct {
		Artifacts []struct {
			ID      int64  `json:"id"`
			Name    string `json:"name"`
			Expired bool   `json:"expired"`
		} `json:"artifacts"`
	}
	if err := g.getJSON(ctx, fmt.Sprintf("/repos/%s/actions/runs/%d/artifacts?per_page=100", g.repo, run), &list); err != nil {
		return "", 0, err
	}
	base := "mcpverdict-" + reporters.Slug(job)
	newest := map[string]int64{} // by name without the attempt, the newest id
	names := map[int64]string{}
	for _, a := range list.Artifacts {
		key := attemptSuffix.ReplaceAllString(a.Name, "")
		if a.Expired || (key != base && !strings.HasPrefix(key, base+"-")) {
			continue
		}
		if a.ID > newest[key] {
			newest[key], names[a.ID] = a.ID, a.Name
		}
	}
	switch len(newest) {
	case 0:
		return "", 0, errorf("run %d has no unexpired artifact %s of this job", run, base)
	case 1:
		for _, id := range newest {
			return names[id], id, nil
		}
	}
	var all []string
	for key := range newest {
		all = append(all, key)
	}
	sort.Strings(all)
	return "", 0, errorf("run %d has an artifact per server (%s); download the one of this server and set baseline to its report.json", run, strings.Join(all, ", "))
}

func (g githubREST) getJSON(ctx context.Context, p string, into any) error {
	body, err := g.get(ctx, p, 10<<20)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("GET %s: the answer is not JSON: %v", p, err)
	}
	return nil
}

// download follows the API's redirect to the artifact's storage; the
// client leaves the token behind when the storage is another host.
func (g githubREST) download(ctx context.Context, p string) ([]byte, error) {
	return g.get(ctx, p, maxArtifactZip)
}

func (g githubREST) get(ctx context.Context, p string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(g.apiURL, "/")+p, nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", p, err)
	}
	setAPIHeaders(req, g.token)
	resp, err := g.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", p, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", p, err)
	}
	if resp.StatusCode/100 != 2 {
		var reply struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(body, &reply)
		return nil, fmt.Errorf("GitHub answered GET %s with %s: %s", p, resp.Status, apiMessage(reply.Message, body))
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("GET %s: the answer is larger than %d bytes", p, limit)
	}
	return body, nil
}

// reportInZip is the report.json of an output directory's zip: at its
// root, as the action uploads it, else the one nearest the root.
func reportInZip(data []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("not a zip: %v", err)
	}
	var best *zip.File
	for _, f := range zr.File {
		if path.Base(f.Name) != reportFile || f.FileInfo().IsDir() {
			continue
		}
		if best == nil || strings.Count(f.Name, "/") < strings.Count(best.Name, "/") {
			best = f
		}
	}
	if best == nil {
		return nil, errors.New("holds no " + reportFile)
	}
	rc, err := best.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, maxArtifactZip))
}
