// server/executor/row_codec.h
//
// Compact serialization of Values for spill files (external sort), and
// hash-key encoding for hash aggregation, DISTINCT, set operations and
// hash joins. Stateless functions; safe from any thread.
//
// Spill format, per value: varint(type_oid << 1 | is_null); then, if not
// NULL: bool → 1 byte; int/float storage → 8 bytes little-endian; bytes
// storage → varint(length) + bytes. A row is its values back to back.
//
// Hash keys: equal SQL values (by the type's "=") give equal key bytes
// within one hash class (see HashClassOf): integers of any width, floats
// (-0 = 0, one NaN), numerics regardless of display scale (1.0 = 1.00),
// bpchar ignoring trailing blanks. NULL has its own encoding (grouping
// treats NULLs as equal; joins skip NULL keys before encoding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "utils/adt/value.h"

namespace hearth::executor {

// Appends the spill encoding of v[0..n) to *out.
void EncodeValues(const types::Value* v, size_t n, std::string* out);
// Decodes n values starting at *p (advanced past them) into v[0..n).
// REQUIRES: the bytes were produced by EncodeValues with the same n.
void DecodeValues(const char** p, types::Value* v, size_t n);

// Appends the hash-key encoding of v to *out.
void AppendHashKey(const types::Value& v, std::string* out);

// Types whose values may be matched by hash-key equality with each other;
// 0 when a type has no hash support. Two join keys hash together only when
// their classes are equal and non-zero.
int HashClassOf(types::Oid type);

// Approximate memory used by a row held in memory (for work_mem).
size_t RowFootprint(const types::Value* v, size_t n);

}  // namespace hearth::executor
