package action

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// sarifUpload is what the code-scanning API needs to file an analysis.
type sarifUpload struct {
	APIURL, Repository, Token string
	CommitSHA, Ref            string
}

// uploadSARIF files a SARIF log through the code-scanning REST API
// (POST /repos/{owner}/{repo}/code-scanning/sarifs): the log gzip-compressed
// and base64-encoded, with the commit and ref it analysed. It returns the
// analysis id GitHub answers with, or an error carrying the API's message.
func uploadSARIF(ctx context.Context, client *http.Client, u sarifUpload, sarif []byte) (string, error) {
	encoded, err := gzipBase64(sarif)
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]string{
		"commit_sha": u.CommitSHA,
		"ref":        u.Ref,
		"sarif":      encoded,
		"tool_name":  "mcpverdict",
	})
	url := strings.TrimSuffix(u.APIURL, "/") + "/repos/" + u.Repository + "/code-scanning/sarifs"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("SARIF upload to %s: %v", url, err)
	}
	setAPIHeaders(req, u.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("SARIF upload: %v", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var reply struct {
		ID      string `json:"id"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(answer, &reply)
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("GitHub refused the SARIF upload (%s): %s", resp.Status, apiMessage(reply.Message, answer))
	}
	return reply.ID, nil
}

// setAPIHeaders authorises a REST API request and asks for the API's
// current version.
func setAPIHeaders(req *http.Request, token string) {
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "mcpverdict-action")
}

// apiMessage is the API's own words, or its raw answer when it gave none.
func apiMessage(message string, raw []byte) string {
	if message != "" {
		return message
	}
	text := strings.TrimSpace(string(raw))
	if len(text) > 300 {
		text = text[:300] + "…"
	}
	if text == "" {
		return "no message"
	}
	return text
}

func gzipBase64(data []byte) (string, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
