// server/utils/adt/tz_abbrevs.cpp
//
// Principal entry point: FindTzAbbrev. The rows are PostgreSQL's Default
// abbreviation set (offsets in seconds east of UTC; D = daylight time).
#include "utils/adt/tz_abbrevs.h"

#include <algorithm>

namespace hearth::types {
namespace {

constexpr int32_t H = 3600;

std::vector<TzAbbrev> Build() {
  std::vector<TzAbbrev> v = {
      {"acdt", 10 * H + 1800, true}, {"acsst", 10 * H + 1800, true}, {"acst", 9 * H + 1800, false},
      {"act", -5 * H, false},        {"acwst", 8 * H + 2700, false}, {"adt", -3 * H, true},
      {"aedt", 11 * H, true},        {"aesst", 11 * H, true},        {"aest", 10 * H, false},
      {"aft", 4 * H + 1800, false},  {"akdt", -8 * H, true},         {"akst", -9 * H, false},
      {"almst", 7 * H, true},        {"ast", -4 * H, false},         {"awsst", 9 * H, true},
      {"awst", 8 * H, false},        {"bot", -4 * H, false},         {"bst", 1 * H, true},
      {"bt", 3 * H, false},          {"cadt", 10 * H + 1800, true},  {"cast", 9 * H + 1800, false},
      {"cct", 8 * H, false},         {"cdt", -5 * H, true},          {"cest", 2 * H, true},
      {"cet", 1 * H, false},         {"cetdst", 2 * H, true},        {"chadt", 13 * H + 2700, true},
      {"chast", 12 * H + 2700, false}, {"ckt", -10 * H, false},      {"clst", -3 * H, true},
      {"cot", -5 * H, false},        {"cst", -6 * H, false},         {"cxt", 7 * H, false},
      {"davt", 7 * H, false},        {"ddut", 10 * H, false},        {"easst", -5 * H, true},
      {"east", -6 * H, false},       {"eat", 3 * H, false},          {"edt", -4 * H, true},
      {"eest", 3 * H, true},         {"eet", 2 * H, false},          {"eetdst", 3 * H, true},
      {"egst", 0, true},             {"egt", -1 * H, false},         {"est", -5 * H, false},
      {"fjst", 13 * H, true},        {"fjt", 12 * H, false},         {"fkst", -3 * H, false},
      {"fnt", -2 * H, false},        {"galt", -6 * H, false},        {"gamt", -9 * H, false},
      {"gest", 4 * H, true},         {"get", 4 * H, false},          {"gft", -3 * H, false},
      {"gilt", 12 * H, false},       {"gmt", 0, false},              {"gyt", -4 * H, false},
      {"hkt", 8 * H, false},         {"hst", -10 * H, false},        {"ict", 7 * H, false},
      {"idt", 3 * H, true},          {"iot", 6 * H, false},          {"irkt", 8 * H, false},
      {"irt", 3 * H + 1800, false},  {"ist", 2 * H, false},          {"jayt", 9 * H, false},
      {"jst", 9 * H, false},         {"kdt", 10 * H, true},          {"kgt", 6 * H, false},
      {"kost", 11 * H, false},       {"krat", 7 * H, false},         {"kst", 9 * H, false},
      {"lhdt", 11 * H, true},        {"lhst", 10 * H + 1800, false}, {"ligt", 10 * H, false},
      {"lint", 14 * H, false},       {"lkt", 6 * H, false},          {"magt", 11 * H, false},
      {"mart", -9 * H - 1800, false}, {"mawt", 5 * H, false},        {"mdt", -6 * H, true},
      {"mest", 2 * H, true},         {"met", 1 * H, false},          {"metdst", 2 * H, true},
      {"mez", 1 * H, false},         {"mht", 12 * H, false},         {"mmt", 6 * H + 1800, false},
      {"mpt", 10 * H, false},        {"msd", 4 * H, true},           {"msk", 3 * H, false},
      {"mst", -7 * H, false},        {"mut", 4 * H, false},          {"mvt", 5 * H, false},
      {"myt", 8 * H, false},         {"nct", 11 * H, false},         {"ndt", -2 * H - 1800, true},
      {"nft", -3 * H - 1800, false}, {"novt", 7 * H, false},         {"npt", 5 * H + 2700, false},
      {"nst", -3 * H - 1800, false}, {"nut", -11 * H, false},        {"nzdt", 13 * H, true},
      {"nzst", 12 * H, false},       {"nzt", 12 * H, false},         {"omst", 6 * H, false},
      {"pdt", -7 * H, true},         {"pet", -5 * H, false},         {"petst", 12 * H, true},
      {"pett", 12 * H, false},       {"pgt", 10 * H, false},         {"phot", 13 * H, false},
      {"pht", 8 * H, false},         {"pkt", 5 * H, false},          {"pmdt", -2 * H, true},
      {"pmst", -3 * H, false},       {"pont", 11 * H, false},        {"pst", -8 * H, false},
      {"pwt", 9 * H, false},         {"pyst", -3 * H, true},         {"ret", 4 * H, false},
      {"sadt", 10 * H + 1800, true}, {"sast", 2 * H, false},         {"sct", 4 * H, false},
      {"tft", 5 * H, false},         {"tjt", 5 * H, false},          {"tkt", 13 * H, false},
      {"tmt", 5 * H, false},         {"tot", 13 * H, false},         {"truk", 10 * H, false},
      {"tvt", 12 * H, false},        {"uct", 0, false},              {"ulast", 9 * H, true},
      {"ulat", 8 * H, false},        {"ut", 0, false},               {"utc", 0, false},
      {"uyst", -2 * H, true},        {"uyt", -3 * H, false},         {"uzst", 6 * H, true},
      {"uzt", 5 * H, false},         {"vet", -4 * H, false},         {"vlat", 10 * H, false},
      {"vust", 11 * H, false},       {"vut", 11 * H, false},         {"wadt", 8 * H, true},
      {"wakt", 12 * H, false},       {"wast", 7 * H, false},         {"wat", 1 * H, false},
      {"wdt", 9 * H, true},          {"wet", 0, false},              {"wetdst", 1 * H, true},
      {"wft", 12 * H, false},        {"wgst", -2 * H, true},         {"wgt", -3 * H, false},
      {"yakt", 9 * H, false},        {"yapt", 10 * H, false},        {"yekt", 5 * H, false},
      {"z", 0, false},               {"zulu", 0, false},
  };
  std::sort(v.begin(), v.end(), [](const TzAbbrev& a, const TzAbbrev& b) { return a.abbrev < b.abbrev; });
  return v;
}

}  // namespace

const std::vector<TzAbbrev>& AllTzAbbrevs() {
  static const std::vector<TzAbbrev> kAll = Build();
  return kAll;
}

const TzAbbrev* FindTzAbbrev(std::string_view lower) {
  const auto& all = AllTzAbbrevs();
  auto it = std::lower_bound(all.begin(), all.end(), lower,
                             [](const TzAbbrev& a, std::string_view k) { return a.abbrev < k; });
  return it != all.end() && it->abbrev == lower ? &*it : nullptr;
}

}  // namespace hearth::types
