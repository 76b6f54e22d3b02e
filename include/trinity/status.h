// Status and Result<T>: Trinity's error model. No exception crosses the public API; every
// failure is a Status whose message names what is wrong (node, input, dimension).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace trinity {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad input or request from the caller (wrong shape, unknown name)
  kNotFound,         // a file, input or device that does not exist
  kUnsupported,      // valid, but not implemented by the chosen backend
  kCorruptModel,     // the model bytes or structure are invalid
  kRuntimeError,     // a failure while running (allocation, kernel error)
  kInternal,         // a bug in Trinity
};

const char* status_code_name(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status Unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
  static Status CorruptModel(std::string m) { return {StatusCode::kCorruptModel, std::move(m)}; }
  static Status RuntimeError(std::string m) { return {StatusCode::kRuntimeError, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "Unsupported: Conv: auto_pad=VALID is not supported".
  std::string ToString() const;
  // Returns a copy whose message is prefixed with `context: `.
  Status WithContext(const std::string& context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or an error Status (never an OK status).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}   // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace trinity

#define TRINITY_CONCAT_INNER(a, b) a##b
#define TRINITY_CONCAT(a, b) TRINITY_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define TRY_STATUS(expr)                         \
  do {                                           \
    ::trinity::Status _st = (expr);              \
    if (!_st.ok()) return _st;                   \
  } while (0)

// `TRY_ASSIGN(auto x, f());` binds the value of a Result or returns its Status.
#define TRY_ASSIGN(lhs, expr) TRY_ASSIGN_IMPL(TRINITY_CONCAT(_res_, __LINE__), lhs, expr)
#define TRY_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                    \
  if (!tmp.ok()) return tmp.status();   \
  lhs = std::move(tmp).value()
