package action

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxArtifactBytes bounds the folder the action zips in memory; a larger
// output directory is left to actions/upload-artifact.
const maxArtifactBytes = 256 << 20

// zipDir zips every regular file under dir, paths relative to it.
func zipDir(dir string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	total := int64(0)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total += info.Size(); total > maxArtifactBytes {
			return fmt.Errorf("%s holds more than %d MiB", dir, maxArtifactBytes>>20)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		return addZipFile(zw, path, filepath.ToSlash(rel), info)
	})
	if err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func addZipFile(zw *zip.Writer, path, name string, info fs.FileInfo) error {
	h, err := zip.FileInfoHeader(info)
	if err != nil {
		return err
	}
	h.Name, h.Method = name, zip.Deflate
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
