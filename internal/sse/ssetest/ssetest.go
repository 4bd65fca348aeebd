// Package ssetest holds what tests of event-stream code share: streams as
// real servers write them, a whole-stream reference reading of the WHATWG
// rules to hold incremental readers against, and a reader that hands out a
// stream in reads cut at given points. Only tests import it.
package ssetest

import (
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Seeds are event streams as real servers write them, plus the corners of
// the WHATWG rules.
var Seeds = []string{
	// server-everything (TypeScript SDK): priming event, then a message.
	"id: a249cb5e-1aa1-425e-aa1b-b51f6a4d2642\ndata: \n\nevent: message\nid: 8756cc1e\ndata: {\"result\":{},\"jsonrpc\":\"2.0\",\"id\":1}\n\n",
	// Go SDK: event, id, data.
	"event: message\nid: 0_0\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}\n\n",
	// priming with a retry hint, CRLF line ends, a keep-alive comment.
	"id: 7\r\nretry: 3000\r\ndata:\r\n\r\n:\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\r\n\r\n",
	// bare CR line ends, multi-line data, a BOM.
	"\xEF\xBB\xBFdata: line one\rdata:line two\r\r",
	// fields without a value, unknown fields, a bad retry, an id with NUL.
	"data\nid\nevent\nretry: 12a\nfoo: bar\n\nid: a\x00b\ndata: x\n\n",
	// a stream cut in the middle of a frame.
	"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"res",
}

// Frame is a frame's fields in comparable form.
type Frame struct {
	Data  string
	ID    *string
	Event string
	Retry *int64
}

var (
	lineEnds   = regexp.MustCompile(`\r\n|\r|\n`)
	retryValue = regexp.MustCompile(`^[0-9]+$`)
)

// Frames reads a whole stream the plain way: strip the BOM, split into
// lines, and dispatch at each blank line. A last line without a line end
// belongs to no frame.
func Frames(stream []byte) []Frame {
	s := strings.TrimPrefix(string(stream), "\xEF\xBB\xBF")
	lines := lineEnds.Split(s, -1)
	lines = lines[:len(lines)-1]
	var (
		frames []Frame
		cur    Frame
		data   []string
	)
	for _, line := range lines {
		if line == "" {
			cur.Data = strings.Join(data, "\n")
			frames = append(frames, cur)
			cur, data = Frame{}, nil
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "data":
			data = append(data, value)
		case "event":
			cur.Event = value
		case "id":
			if !strings.Contains(value, "\x00") {
				cur.ID = &value
			}
		case "retry":
			ms, err := strconv.ParseInt(value, 10, 64)
			if err == nil && retryValue.MatchString(value) {
				cur.Retry = &ms
			}
		}
	}
	return frames
}

// Messages returns the data of the frames of Frames that carry data: the
// messages a client of the stream is handed.
func Messages(stream []byte) []string {
	var messages []string
	for _, f := range Frames(stream) {
		if f.Data != "" {
			messages = append(messages, f.Data)
		}
	}
	return messages
}

// CutReader returns Data in reads whose sizes come from Cuts, cycling: a
// read of cut+1 bytes for each cut; Data in one read when Cuts is empty.
type CutReader struct {
	Data []byte
	Cuts []byte
	i    int
}

func (c *CutReader) Read(p []byte) (int, error) {
	if len(c.Data) == 0 {
		return 0, io.EOF
	}
	n := len(c.Data)
	if len(c.Cuts) > 0 {
		n = min(n, int(c.Cuts[c.i%len(c.Cuts)])+1)
		c.i++
	}
	n = copy(p, c.Data[:n])
	c.Data = c.Data[n:]
	return n, nil
}
