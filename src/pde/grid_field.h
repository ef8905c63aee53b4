#pragma once
/// One experiment's field on a uniform grid of its window, as the weak-form estimate
/// (eval/weak_form.h) integrates it: u and the two derivatives that set the test functions'
/// widths.

#include <ATen/core/Tensor.h>

namespace bhpm::pde {

struct GridField {
  at::Tensor x;    ///< [n] uniform, ascending, the window's ends included (double)
  at::Tensor t;    ///< [T] uniform, ascending, the window's ends included (double)
  at::Tensor u;    ///< [T, n] (double)
  at::Tensor u_x;  ///< [T, n] (double)
  at::Tensor u_t;  ///< [T, n] (double)
};

}  // namespace bhpm::pde
