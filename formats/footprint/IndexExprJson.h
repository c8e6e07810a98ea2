//===- ExprJson.h - IndexExpr <-> nlohmann::json (runtime-internal) ---*- C++ -*-===//
#ifndef SKMD_FOOTPRINT_INDEXEXPRJSON_H
#define SKMD_FOOTPRINT_INDEXEXPRJSON_H

#include "footprint/IndexExpr.h"

#include <nlohmann/json.hpp>

namespace skmd {

nlohmann::ordered_json exprToJson(const IndexExpr &E);
/// \p Path names the value in error messages.
Result<IndexExpr> exprFromJson(const nlohmann::json &J, const std::string &Path);

} // namespace skmd

#endif // SKMD_FOOTPRINT_INDEXEXPRJSON_H
