// client/sha256.h
//
// SHA-256, HMAC-SHA-256 and SCRAM's Hi() for the client: the shared
// implementations of common/auth/crypto.h under the client's names.
#pragma once

#include "common/auth/crypto.h"

namespace hearth::client {

using auth::DigestBytes;
using auth::HmacSha256;
using auth::ScramHi;
using auth::Sha256;
using auth::Sha256Digest;

}  // namespace hearth::client
