#include "cli/process_setup.h"

#include <malloc.h>

namespace bhpm::cli {

void configure_process() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
}

}  // namespace bhpm::cli
