package driver

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
)

// sseEvent is one dispatched server-sent event: its data (lines joined
// with "\n"), the id it set and the retry hint it gave, if any.
type sseEvent struct {
	data  []byte
	id    *string
	retry int
}

// sseReader reads events from a text/event-stream body as the WHATWG
// event-stream rules define them, enough for MCP: data, id and retry fields,
// comment lines, CRLF, CR or LF line ends.
type sseReader struct {
	r     *bufio.Reader
	data  bytes.Buffer
	lines int
	id    *string
	retry int
}

func newSSEReader(body io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(body, 64<<10)}
}

// next returns the next event that carries data, io.EOF at the end of the
// stream, or the read error. A frame with an id or retry but no data (the
// priming event) updates lastID and retry without being returned.
func (s *sseReader) next() (sseEvent, error) {
	for {
		line, err := s.line()
		if err != nil {
			return sseEvent{}, err
		}
		if line != "" {
			s.field(line)
			continue
		}
		if s.lines > 0 {
			ev := sseEvent{data: bytes.Clone(s.data.Bytes()), id: s.id, retry: s.retry}
			s.data.Reset()
			s.lines = 0
			return ev, nil
		}
	}
}

// line returns one line without its end; a stream that ends mid-line
// ends the reading, since that line was never complete.
func (s *sseReader) line() (string, error) {
	var b strings.Builder
	for {
		chunk, err := s.r.ReadSlice('\n')
		b.Write(chunk)
		if b.Len() > maxMessage {
			return "", errors.New("an SSE line longer than 64 MiB")
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return "", err
		}
		return strings.TrimRight(b.String(), "\r\n"), nil
	}
}

func (s *sseReader) field(line string) {
	if strings.HasPrefix(line, ":") {
		return
	}
	name, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch name {
	case "data":
		if s.lines > 0 {
			s.data.WriteByte('\n')
		}
		s.data.WriteString(value)
		s.lines++
	case "id":
		if !strings.ContainsRune(value, 0) {
			v := value
			s.id = &v
		}
	case "retry":
		if n, err := strconv.Atoi(value); err == nil && n >= 0 {
			s.retry = n
		}
	}
}
