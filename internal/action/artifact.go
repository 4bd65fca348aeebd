package action

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// artifactService speaks the artifact protocol actions/upload-artifact v4
// speaks: the Twirp service github.actions.results.api.v1.ArtifactService
// at $ACTIONS_RESULTS_URL, authorised by $ACTIONS_RUNTIME_TOKEN.
// CreateArtifact answers with a signed blob URL, the zip goes there in one
// PUT, and FinalizeArtifact records its size and SHA-256.
type artifactService struct {
	client     *http.Client
	resultsURL string
	token      string
}

const artifactTwirp = "/twirp/github.actions.results.api.v1.ArtifactService/"

// backendIDs are the workflow run and job the runtime token is scoped to.
type backendIDs struct {
	Run, Job string
}

// upload creates, fills and finalizes the artifact and returns its id.
func (s *artifactService) upload(ctx context.Context, name string, zip []byte) (string, error) {
	ids, err := tokenBackendIDs(s.token)
	if err != nil {
		return "", err
	}
	var created struct {
		OK              bool   `json:"ok"`
		SignedUploadURL string `json:"signed_upload_url"`
	}
	// Field names as the service's JSON (protobuf names, int64 as strings).
	err = s.call(ctx, "CreateArtifact", map[string]any{
		"workflow_run_backend_id": ids.Run, "workflow_job_run_backend_id": ids.Job, "name": name, "version": 4,
	}, &created)
	if err != nil {
		return "", err
	}
	if !created.OK || created.SignedUploadURL == "" {
		return "", fmt.Errorf("CreateArtifact did not give an upload URL")
	}
	if err := s.putBlob(ctx, created.SignedUploadURL, zip); err != nil {
		return "", err
	}
	sum := sha256.Sum256(zip)
	var finalized struct {
		OK         bool   `json:"ok"`
		ArtifactID string `json:"artifact_id"`
	}
	err = s.call(ctx, "FinalizeArtifact", map[string]any{
		"workflow_run_backend_id": ids.Run, "workflow_job_run_backend_id": ids.Job, "name": name,
		"size": strconv.Itoa(len(zip)), "hash": "sha256:" + hex.EncodeToString(sum[:]),
	}, &finalized)
	if err != nil {
		return "", err
	}
	if !finalized.OK {
		return "", fmt.Errorf("FinalizeArtifact did not accept the artifact")
	}
	return finalized.ArtifactID, nil
}

// call makes one Twirp JSON call.
func (s *artifactService) call(ctx context.Context, method string, in, out any) error {
	base, err := url.Parse(s.resultsURL)
	if err != nil || base.Host == "" {
		return fmt.Errorf("ACTIONS_RESULTS_URL %q is not a URL", s.resultsURL)
	}
	endpoint := base.ResolveReference(&url.URL{Path: artifactTwirp + method}).String()
	body, _ := json.Marshal(in)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %v", method, err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "mcpverdict-action")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		var twirpErr struct {
			Msg string `json:"msg"`
		}
		_ = json.Unmarshal(answer, &twirpErr)
		return fmt.Errorf("%s refused (%s): %s", method, resp.Status, apiMessage(twirpErr.Msg, answer))
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("%s answered what is not JSON: %v", method, err)
	}
	return nil
}

// putBlob uploads the zip to the signed URL as one block blob (an Azure
// Put Blob: one request up to 5,000 MiB, far above any report folder).
func (s *artifactService) putBlob(ctx context.Context, signedURL string, zip []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, signedURL, bytes.NewReader(zip))
	if err != nil {
		return fmt.Errorf("artifact upload: %v", err)
	}
	req.Header.Set("x-ms-blob-type", "BlockBlob")
	req.Header.Set("Content-Type", "zip")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("artifact upload: %v", redactQuery(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("artifact storage refused the upload (%s): %s", resp.Status, apiMessage("", answer))
	}
	return nil
}

// redactQuery keeps the signed URL's signature out of messages.
func redactQuery(err error) error {
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		if u, perr := url.Parse(ue.URL); perr == nil {
			u.RawQuery = ""
			return fmt.Errorf("%s %s: %v", ue.Op, u, ue.Err)
		}
	}
	return err
}

// tokenBackendIDs reads the run and job ids from the runtime token, a JWT
// whose scp claim holds "Actions.Results:RUN:JOB".
func tokenBackendIDs(token string) (backendIDs, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return backendIDs{}, fmt.Errorf("ACTIONS_RUNTIME_TOKEN is not a JWT")
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return backendIDs{}, fmt.Errorf("ACTIONS_RUNTIME_TOKEN: %v", err)
	}
	var claims struct {
		Scp string `json:"scp"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return backendIDs{}, fmt.Errorf("ACTIONS_RUNTIME_TOKEN claims: %v", err)
	}
	for _, scope := range strings.Fields(claims.Scp) {
		p := strings.Split(scope, ":")
		if len(p) == 3 && p[0] == "Actions.Results" {
			return backendIDs{Run: p[1], Job: p[2]}, nil
		}
	}
	return backendIDs{}, fmt.Errorf("ACTIONS_RUNTIME_TOKEN has no Actions.Results scope")
}
