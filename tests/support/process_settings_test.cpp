// Every test process runs with the CLI's start-up settings (cli/process_setup.h): without
// them glibc hands the memory of freed tensors back to the kernel after every step, and
// the training-heavy tests spent about half their time in page faults (measured: the PINN
// Burgers test 27 s without, 14.5 s with).

#include <gtest/gtest.h>

#include "cli/process_setup.h"

namespace {

class ProcessSettings final : public ::testing::Environment {
 public:
  void SetUp() override { bhpm::cli::configure_process(); }
};

const ::testing::Environment* const kProcessSettings =
    ::testing::AddGlobalTestEnvironment(new ProcessSettings);

}  // namespace
