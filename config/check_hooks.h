// config/check_hooks.h
//
// Validation/normalisation hooks for settings whose values need more than a
// type check (see CheckHook in registry.h). Each throws DbError (22023, or
// 0A000 for recognised-but-unsupported values) and may rewrite the value to
// its canonical spelling. Stateless; safe from any thread.
#pragma once

#include "config/registry.h"

namespace hearth::config {

// client_encoding: UTF8 and its spellings (utf8, UNICODE, utf-8) → "UTF8";
// SQL_ASCII (sent by psql under the C locale) → "SQL_ASCII", meaning the
// server's UTF-8 bytes pass unconverted. Other known encodings → 0A000;
// unknown names → 22023.
void CheckClientEncoding(const SettingDef& def, SettingValue& value, const SettingValue& current);

// DateStyle: comma/space separated tokens; output style ISO, SQL, Postgres
// or German, field order DMY/MDY/YMD (+ PostgreSQL's aliases). Normalised to
// "Postgres, MDY" form; an omitted style or order keeps the current one
// (German alone implies DMY).
void CheckDateStyle(const SettingDef& def, SettingValue& value, const SettingValue& current);

// TimeZone, as PostgreSQL's check_timezone: a zone file under
// /usr/share/zoneinfo (matched exactly, else case-insensitively, keeping the
// file's spelling), a POSIX TZ string ("PST8PDT", "UTC+5"), a bare number of
// hours east of UTC ("-8" → "<-08>+08"), or "INTERVAL 'x' [qualifier]" from
// SET TIME ZONE INTERVAL. Normalised to the zone's name (common/tz/tz.h).
void CheckTimeZone(const SettingDef& def, SettingValue& value, const SettingValue& current);

// application_name: non-printable-ASCII bytes become '?', then the value is
// truncated to 63 bytes (NAMEDATALEN - 1), as PostgreSQL does.
void CheckApplicationName(const SettingDef& def, SettingValue& value, const SettingValue& current);

// Boolean settings whose "off" the server does not implement
// (standard_conforming_strings): off → 0A000.
void CheckOnlyOn(const SettingDef& def, SettingValue& value, const SettingValue& current);

// default_tablespace: "" or pg_default; default_table_access_method: heap
// (the only tablespace and table access method there are); others → 22023
// with PostgreSQL's detail.
void CheckDefaultTablespace(const SettingDef& def, SettingValue& value, const SettingValue& current);
void CheckTableAccessMethod(const SettingDef& def, SettingValue& value, const SettingValue& current);

}  // namespace hearth::config
