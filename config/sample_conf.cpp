// config/sample_conf.cpp
//
// Principal entry points: GenerateSampleConf(), InitialConf().

#include "config/sample_conf.h"

#include "config/registry.h"
#include "config/value_parse.h"

namespace hearth::config {
namespace {

constexpr size_t kCommentColumn = 40;  // where the "# description" starts

constexpr char kHeader[] =
    "# -----------------------------\n"
    "# Hearth configuration file\n"
    "# -----------------------------\n"
    "#\n"
    "# This file consists of lines of the form:\n"
    "#\n"
    "#   name = value\n"
    "#\n"
    "# (The \"=\" is optional.)  Whitespace may be used.  Comments are introduced\n"
    "# with \"#\" anywhere on a line.  Values may be single-quoted; write '' for a\n"
    "# quote inside a quoted value.  Names are case-insensitive.  Unknown names\n"
    "# are an error.\n"
    "#\n"
    "# Settings marked \"(change requires restart)\" are read at server start\n"
    "# only; the others are re-read when the server receives SIGHUP.  Settings\n"
    "# given on the command line (-c name=value) override this file.\n"
    "#\n"
    "# Memory units:  B  = bytes            Time units:  us  = microseconds\n"
    "#                kB = kilobytes                     ms  = milliseconds\n"
    "#                MB = megabytes                     s   = seconds\n"
    "#                GB = gigabytes                     min = minutes\n"
    "#                TB = terabytes                     h   = hours\n"
    "#                                                   d   = days\n"
    "#\n"
    "# Generated from config/registry.cpp by GenerateSampleConf(); do not edit\n"
    "# by hand (see config/README.md).\n";

std::string SampleValue(const SettingDef& def) {
  std::string shown = FormatSettingValue(def, BootValue(def));
  bool quote = def.type == SettingType::kString ||
               (def.type == SettingType::kEnum && shown.find(' ') != std::string::npos);
  return quote ? QuoteConfValue(shown) : shown;
}

void AppendCommented(std::string& out, std::string head, std::string_view comment) {
  if (head.size() + 1 > kCommentColumn) {
    out += head + "\n" + std::string(kCommentColumn, ' ');
  } else {
    out += head + std::string(kCommentColumn - head.size(), ' ');
  }
  out += "# ";
  out += comment;
  out += "\n";
}

}  // namespace

std::string QuoteConfValue(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') out += "''";
    else if (c == '\\') out += "\\\\";
    else out += c;
  }
  return out + "'";
}

std::string GenerateSampleConf() {
  std::string out = kHeader;
  auto all = AllSettings();
  for (int c = static_cast<int>(Category::kFileLocations);
       c <= static_cast<int>(Category::kPreset); ++c) {
    Category cat = static_cast<Category>(c);
    bool header_done = false;
    for (const SettingDef& def : all) {
      if (def.category != cat || def.context == Context::kInternal ||
          (def.flags & kNoSample)) {
        continue;
      }
      if (!header_done) {
        out += "\n\n";
        out += "#------------------------------------------------------------------------------\n";
        out += "# " + std::string(CategoryTitle(cat)) + "\n";
        out += "#------------------------------------------------------------------------------\n";
        out += "\n";
        header_done = true;
      }
      AppendCommented(out, "#" + std::string(def.name) + " = " + SampleValue(def),
                      def.description);
      if (def.context == Context::kPostmaster) {
        out += std::string(kCommentColumn, ' ') + "# (change requires restart)\n";
      }
    }
  }
  return out;
}

std::string InitialConf(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::string out =
      "# hearth.conf, written by `hearthd init`.\n"
      "# Uncomment a line and change its value to override the default.\n"
      "\n";
  out += GenerateSampleConf();
  if (!extra.empty()) {
    out += "\n\n";
    out += "#------------------------------------------------------------------------------\n";
    out += "# SETTINGS CHOSEN AT INIT\n";
    out += "#------------------------------------------------------------------------------\n";
    out += "\n";
    for (const auto& [name, value] : extra) out += name + " = " + QuoteConfValue(value) + "\n";
  }
  return out;
}

}  // namespace hearth::config
