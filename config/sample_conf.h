// config/sample_conf.h
//
// Generators for configuration files, driven by the registry:
// hearth.conf.sample (checked in at config/hearth.conf.sample; a unit test
// keeps it in sync) and the hearth.conf that `hearthd init` writes into a new
// data directory. Pure functions; safe from any thread.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hearth::config {

// The full sample file: a syntax header, then one section per category with
// every settable setting commented out at its default, e.g.
//   #shared_buffers = 128MB                 # Sets the number of shared ...
//                                           # (change requires restart)
// Internal and kNoSample settings are omitted. Deterministic output.
std::string GenerateSampleConf();

// The hearth.conf for a new data directory: a short header, the sample, and
// then `extra` as active (uncommented) lines, values single-quoted, e.g.
// InitialConf({{"port", "5440"}}) ends with "port = '5440'".
// REQUIRES: names in `extra` are valid settings (not checked here).
std::string InitialConf(const std::vector<std::pair<std::string, std::string>>& extra = {});

// Quotes a value for a config file: 'it''s' (doubling quotes and
// backslashes so the reader gets the text back unchanged).
std::string QuoteConfValue(const std::string& value);

}  // namespace hearth::config
