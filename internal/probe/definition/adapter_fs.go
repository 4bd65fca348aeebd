package definition

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// fsAdapter observes a file or a directory tree: each entry is a record of
// its type, permission bits, content hash (files) or target (symlinks).
// Modification times and inode numbers are never observed: they change
// without the content changing.
type fsAdapter struct {
	path     string
	seed     string // a file or directory copied to path
	patterns []string
}

// otherRegion holds an fs adapter's entries that no pattern classifies.
const otherRegion = "(other)"

func (a *fsAdapter) SeedInto(stateDir string) error {
	if a.seed == "" {
		return nil
	}
	return CopyTree(a.seed, filepath.Join(stateDir, a.path))
}

func (a *fsAdapter) keyFields(string) []string { return nil }

func (a *fsAdapter) Observe(stateDir string) (map[string][]RawRecord, error) {
	root := filepath.Join(stateDir, a.path)
	out := map[string][]RawRecord{}
	err := walkEntries(root, func(rel string, value map[string]any) {
		region := a.regionOf(rel)
		out[region] = append(out[region], RawRecord{Name: rel, Value: value})
	})
	return out, err
}

// regionOf returns the first classification pattern rel matches.
func (a *fsAdapter) regionOf(rel string) string {
	for _, p := range a.patterns {
		if globMatch(p, rel) {
			return p
		}
	}
	return otherRegion
}

// globMatch matches a slash-separated path against a pattern of
// path.Match, where a final "/**" (or "**" alone) matches everything below.
func globMatch(pattern, rel string) bool {
	if pattern == "**" || (rel == "." && pattern == ".") {
		return true
	}
	if dir, ok := strings.CutSuffix(pattern, "/**"); ok {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	ok, err := path.Match(pattern, rel)
	return err == nil && ok
}

// walkEntries visits root and everything below it without following
// symlinks, calling visit with each entry's slash-separated path relative
// to root (root itself is ".").
func walkEntries(root string, visit func(rel string, value map[string]any)) error {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		v, err := entryValue(p, d)
		if err != nil {
			return err
		}
		visit(filepath.ToSlash(rel), v)
		return nil
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// entryValue describes one entry by content, never by time or inode.
func entryValue(p string, d fs.DirEntry) (map[string]any, error) {
	info, err := d.Info()
	if err != nil {
		return nil, err
	}
	mode := info.Mode()
	v := map[string]any{"mode": fmt.Sprintf("%04o", mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))}
	switch {
	case mode&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		v["type"], v["target"] = "symlink", target
		return v, err
	case mode.IsDir():
		v["type"] = "dir"
	case mode.IsRegular():
		sum, err := fileHash(p)
		v["type"], v["sha256"] = "file", sum
		return v, err
	default:
		v["type"] = "other"
	}
	return v, nil
}

func fileHash(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// observeRest records the files of stateDir that no adapter observes, so a
// write anywhere in the state directory is seen.
func observeRest(stateDir string, covered []string) ([]RawRecord, error) {
	var out []RawRecord
	err := filepath.WalkDir(stateDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(stateDir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if isCovered(rel, covered) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		v, err := entryValue(p, d)
		if err == nil {
			out = append(out, RawRecord{Name: rel, Value: v})
		}
		return err
	})
	return out, err
}

func isCovered(rel string, covered []string) bool {
	for _, c := range covered {
		if rel == c || strings.HasPrefix(rel, c+"/") {
			return true
		}
	}
	return false
}

// adapterPaths lists the paths the adapters observe, with SQLite's sidecar
// files, slash-separated and relative to the state directory.
func (d *Definition) adapterPaths() []string {
	var out []string
	for _, a := range d.Adapters {
		p := path.Clean(filepath.ToSlash(a.Path))
		if a.Kind != "sqlite" {
			out = append(out, p)
			continue
		}
		for _, s := range sqliteSidecars {
			out = append(out, p+s)
		}
	}
	return out
}

// CopyTree copies a file or a directory tree, keeping permission bits and
// symlinks.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		return copyEntry(p, filepath.Join(dst, rel), d)
	})
}

func copyEntry(src, dst string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	switch mode := info.Mode(); {
	case mode&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	case mode.IsDir():
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		return os.Chmod(dst, mode.Perm())
	case mode.IsRegular():
		return CopyFile(src, dst, mode.Perm())
	}
	return fmt.Errorf("%s: cannot copy a %s", src, info.Mode().Type())
}

func CopyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, perm)
}
