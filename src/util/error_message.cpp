#include "util/error_message.h"

#include <c10/util/Exception.h>

namespace bhpm::util {

std::string error_message(const std::exception& error) {
  if (const auto* torch_error = dynamic_cast<const c10::Error*>(&error))
    return torch_error->what_without_backtrace();
  return error.what();
}

}  // namespace bhpm::util
