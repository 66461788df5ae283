package ledgerdb

import (
	"context"
	"fmt"
	"reflect"
)

// Scan runs q as Query does and fills one T for each row it returns. A field
// of T tagged `db:"name"` takes the column of that name; untagged fields are
// left alone. The rows come from Query, so the views, the authorizer and
// show.Text apply to Scan exactly as they do there.
//
// A ledger is whatever schema version wrote it, and SQLite keeps any value
// in any column, so nothing the ledger holds is an error here: a column the
// query does not return leaves its field zero, and so does a NULL or a value
// of another kind (text in a number column), except that a pointer field is
// then nil. A field of a type no column can fill is an error of T.
func Scan[T any](ctx context.Context, path, q string, args ...any) ([]T, error) {
	fields, err := columnFields(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	rows, err := Query(ctx, path, q, args...)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(rows))
	for i, row := range rows {
		v := reflect.ValueOf(&out[i]).Elem()
		for col, field := range fields {
			set(v.Field(field), row[col])
		}
	}
	return out, nil
}

// columnFields maps each column a struct type's db tags name to the index of
// its field.
func columnFields(t reflect.Type) (map[string]int, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("scan the ledger into %s: not a struct", t)
	}
	fields := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		col, ok := f.Tag.Lookup("db")
		if !ok {
			continue
		}
		if !f.IsExported() {
			return nil, fmt.Errorf("scan the ledger into %s: field %s is not exported", t, f.Name)
		}
		if _, dup := fields[col]; dup {
			return nil, fmt.Errorf("scan the ledger into %s: two fields take column %q", t, col)
		}
		if !scannable(f.Type) {
			return nil, fmt.Errorf("scan the ledger into %s: field %s is a %s, which no column fills", t, f.Name, f.Type)
		}
		fields[col] = i
	}
	return fields, nil
}

// scannable reports whether set can fill a field of type t: the kinds a
// SQLite value comes as (text, integer, real) and pointers to them for the
// columns where NULL means something.
func scannable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
		return true
	}
	return false
}

// set fills f with v, a value of a Query row; a pointer field stays nil
// unless v is of a kind its element takes.
func set(f reflect.Value, v any) {
	if f.Kind() != reflect.Pointer {
		fill(f, v)
		return
	}
	p := reflect.New(f.Type().Elem())
	if fill(p.Elem(), v) {
		f.Set(p)
	}
}

// fill sets f from v and reports whether v was of a kind f takes. Integers
// and reals fill each other's fields (an AVG is real, a 1 in a REAL column
// may be stored as an integer); a real fills an integer truncated.
func fill(f reflect.Value, v any) bool {
	switch n := v.(type) {
	case string:
		if f.Kind() != reflect.String {
			return false
		}
		f.SetString(n)
	case int64:
		return fillNumber(f, float64(n), n)
	case float64:
		return fillNumber(f, n, int64(n))
	default:
		return false
	}
	return true
}

// fillNumber sets f from a number, given both as a real and as an integer,
// and reports whether f takes numbers. A number fills a bool as SQLite
// reads a condition: anything but zero is true.
func fillNumber(f reflect.Value, asReal float64, asInt int64) bool {
	switch f.Kind() {
	case reflect.Int, reflect.Int64:
		f.SetInt(asInt)
	case reflect.Float64:
		f.SetFloat(asReal)
	case reflect.Bool:
		f.SetBool(asReal != 0)
	default:
		return false
	}
	return true
}
