package evaluate_test

import (
	"reflect"
	"unsafe"
)

// deepCopy copies src into dst through reflection, unexported fields
// included, so the copy shares no slice or map with the original.
func deepCopy[T any](src *T, dst *T) error {
	copyValue(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem())
	return nil
}

func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func readable(v reflect.Value) reflect.Value {
	if v.CanInterface() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func copyValue(dst, src reflect.Value) {
	dst = settable(dst)
	src = readable(src)
	switch src.Kind() {
	case reflect.Struct:
		for i := range src.NumField() {
			copyValue(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyValue(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		iter := src.MapRange()
		for iter.Next() {
			m.SetMapIndex(iter.Key(), iter.Value())
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyValue(p.Elem(), src.Elem())
		dst.Set(p)
	default:
		dst.Set(src)
	}
}
