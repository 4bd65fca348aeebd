package rawjson

// Duplicate is a member whose name an earlier member of the same object
// already has: where its key opens in the text, the name unescaped, and
// how deep the object lies (0 for the outermost value).
type Duplicate struct {
	At    int
	Name  string
	Depth int
}

// DuplicateScanner finds repeated member names. JSON only says names
// should be unique, and readers disagree on which of two values counts, so
// a judge that reads one of them must say so. A scanner keeps its buffers
// from one text to the next; it is not safe for concurrent use.
type DuplicateScanner struct {
	// Shallow leaves every member's value unread: only the outermost
	// object's own names are compared, at the speed of a bracket count,
	// for a reader that must not pay for a walk of every message.
	Shallow bool
	frames  []dupFrame
	names   [][]byte
	seen    map[string]struct{}
	// seenFor is the object whose names seen holds: where its names start
	// and its depth.
	seenFor [2]int
}

type dupFrame struct {
	object    bool
	expectKey bool
	names     int // where this object's names start in DuplicateScanner.names
}

// dupStructural are the bytes First stops at.
var dupStructural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true}

// manyNames is how many names an object holds before they are looked up in
// a map rather than compared one by one.
const manyNames = 32

// First returns the first duplicate in b, and false when there is none.
// It finds names by quotes and brackets alone, which only well-formed
// text makes mean anything: hence Checked.
func (d *DuplicateScanner) First(c Checked) (Duplicate, bool) {
	b := c.text
	d.frames, d.names = d.frames[:0], d.names[:0]
	for i := 0; i < len(b); {
		// Numbers, literals, colons and spaces say nothing of names.
		for i < len(b) && !dupStructural[b[i]] {
			i++
		}
		if i == len(b) {
			break
		}
		switch c := b[i]; c {
		case '"':
			end := skipCheckedString(b, i)
			if end > len(b) {
				end = len(b)
			}
			if n := len(d.frames); n > 0 && d.frames[n-1].expectKey {
				d.frames[n-1].expectKey = false
				if dup, ok := d.noteName(b, i, end); ok {
					return dup, true
				}
			}
			i = end
			continue
		case '{', '[':
			if d.Shallow && len(d.frames) > 0 {
				i = skipCheckedContainer(b, i)
				continue
			}
			d.frames = append(d.frames, dupFrame{object: c == '{', expectKey: c == '{', names: len(d.names)})
		case '}', ']':
			if n := len(d.frames); n > 0 {
				d.names = d.names[:d.frames[n-1].names]
				d.frames = d.frames[:n-1]
			}
		case ',':
			if n := len(d.frames); n > 0 && d.frames[n-1].object {
				d.frames[n-1].expectKey = true
			}
		}
		i++
	}
	return Duplicate{}, false
}

// noteName adds the key b[open:end] to the innermost object's names and
// reports it when the object already has it.
func (d *DuplicateScanner) noteName(b []byte, open, end int) (Duplicate, bool) {
	name := b[open+1 : max(open+1, end-1)]
	if needsDecoding(name) {
		name = []byte(unquote(name))
	}
	start := d.frames[len(d.frames)-1].names
	earlier := d.names[start:]
	repeated := false
	if len(earlier) < manyNames {
		for _, e := range earlier {
			if len(e) == len(name) && string(e) == string(name) {
				repeated = true
				break
			}
		}
	} else {
		repeated = d.inMap([2]int{start, len(d.frames)}, earlier, name)
	}
	d.names = append(d.names, name)
	if repeated {
		return Duplicate{At: open, Name: string(name), Depth: len(d.frames) - 1}, true
	}
	return Duplicate{}, false
}

// inMap looks name up among the many earlier names of the object owner,
// building the map afresh when it holds another object's: objects this
// large are rare, and a map per object would cost every small one. Two
// objects with the same owner key follow one another, and the later one
// first gets here with manyNames names while the earlier left more.
func (d *DuplicateScanner) inMap(owner [2]int, earlier [][]byte, name []byte) bool {
	if d.seen == nil {
		d.seen = make(map[string]struct{}, len(earlier))
	}
	if d.seenFor != owner || len(d.seen) != len(earlier) {
		d.seenFor = owner
		clear(d.seen)
		for _, e := range earlier {
			d.seen[string(e)] = struct{}{}
		}
	}
	_, ok := d.seen[string(name)]
	if !ok {
		d.seen[string(name)] = struct{}{}
	}
	return ok
}
