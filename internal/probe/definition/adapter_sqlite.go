package definition

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	// modernc.org/sqlite is SQLite itself, translated to Go: the probe
	// reads databases exactly as the servers wrote them, without cgo.
	_ "modernc.org/sqlite"
)

// SqliteAdapter observes a SQLite database: each table is a region, each
// row a record of typed cells keyed by its primary key, and the schema
// itself (tables, indexes, views, triggers) a region of its own.
type SqliteAdapter struct {
	Path string
	Seed string // an SQL script
	// pks and columns are each table's key and columns, as last observed.
	pks, columns map[string][]string
}

// SchemaRegion holds the database's schema entries.
const SchemaRegion = "(schema)"

// sqliteSidecars are the files SQLite keeps beside a database.
var sqliteSidecars = []string{"", "-wal", "-shm", "-journal"}

func (a *SqliteAdapter) SeedInto(stateDir string) error {
	if a.Seed == "" {
		return nil
	}
	script, err := os.ReadFile(a.Seed)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", a.Seed, UnwrapPathErr(err))
	}
	target := filepath.Join(stateDir, a.Path)
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	db, err := openSQLite(target)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(a.Seed), err)
	}
	return db.Close()
}

func openSQLite(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

func (a *SqliteAdapter) Observe(stateDir string) (map[string][]RawRecord, error) {
	target := filepath.Join(stateDir, a.Path)
	if _, err := os.Stat(target); errors.Is(err, os.ErrNotExist) {
		return map[string][]RawRecord{}, nil
	}
	db, err := openSQLite(target)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	schema, tables, err := readSchema(db)
	if err != nil {
		return nil, err
	}
	out := map[string][]RawRecord{SchemaRegion: schema}
	a.pks, a.columns = map[string][]string{}, map[string][]string{}
	for _, t := range tables {
		cols, pk, err := tableColumns(db, t)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t, err)
		}
		rows, err := readTable(db, t, cols)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t, err)
		}
		out[t], a.pks[t], a.columns[t] = rows, pk, cols
	}
	return out, nil
}

func (a *SqliteAdapter) keyFields(region string) []string {
	if region == SchemaRegion {
		return []string{"type", "name"}
	}
	return a.pks[region]
}

// readSchema lists every schema entry and the user tables. SQLite's own
// tables are left out: sqlite_sequence only mirrors the highest key of a
// table already observed.
func readSchema(db *sql.DB) (entries []RawRecord, tables []string, err error) {
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			return nil, nil, err
		}
		entries = append(entries, RawRecord{Value: map[string]any{"type": typ, "name": name, "sql": text}})
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	return entries, tables, rows.Err()
}

// readTable reads every row as typed cells: each cell is selected with its
// storage class and its text, so that 1, 1.0, '1' and x'01' stay apart and
// no driver conversion (a DATETIME column into a time) intervenes.
func readTable(db *sql.DB, table string, cols []string) ([]RawRecord, error) {
	selects := make([]string, 0, 2*len(cols))
	for _, c := range cols {
		q := quoteIdent(c)
		selects = append(selects, "typeof("+q+")", "CASE typeof("+q+") WHEN 'blob' THEN hex("+q+") ELSE CAST("+q+" AS TEXT) END")
	}
	rows, err := db.Query("SELECT " + strings.Join(selects, ", ") + " FROM " + quoteIdent(table))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RawRecord
	for rows.Next() {
		rec, err := scanTyped(rows, cols)
		if err != nil {
			return nil, err
		}
		out = append(out, RawRecord{Value: rec})
	}
	return out, rows.Err()
}

func scanTyped(rows *sql.Rows, cols []string) (map[string]any, error) {
	cells := make([]sql.NullString, 2*len(cols))
	ptrs := make([]any, len(cells))
	for i := range cells {
		ptrs[i] = &cells[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	rec := make(map[string]any, len(cols))
	for i, c := range cols {
		rec[c] = typedCell(cells[2*i].String, cells[2*i+1])
	}
	return rec, nil
}

// typedCell encodes a cell by its storage class: integers as JSON numbers,
// text as strings, NULL as null, reals and blobs tagged.
func typedCell(class string, text sql.NullString) any {
	switch class {
	case "integer":
		return json.Number(text.String)
	case "real":
		return map[string]any{"real": text.String}
	case "blob":
		return map[string]any{"blob": text.String}
	case "text":
		return text.String
	}
	return nil
}

// tableColumns returns the table's columns and its primary key columns in
// key order.
func tableColumns(db *sql.DB, table string) (cols, pk []string, err error) {
	rows, err := db.Query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	order := map[int]string{}
	for rows.Next() {
		var name string
		var pos int
		if err := rows.Scan(&name, &pos); err != nil {
			return nil, nil, err
		}
		cols = append(cols, name)
		if pos > 0 {
			order[pos] = name
		}
	}
	for i := 1; i <= len(order); i++ {
		pk = append(pk, order[i])
	}
	return cols, pk, rows.Err()
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
