#pragma once
/// Well-posedness of a field system's linear part over a horizon: the one-field rule
/// (solve/well_posedness.h; docs/predictions.md, "Ill-posed samples") with L(k) a q x q
/// matrix (pde/system_etdrk4.h). One field's rule measures each wave's growth over the
/// mean wave's, Re lambda(k) - Re lambda(0); for q fields the zero-order part L(0) does not
/// commute with the rest, and the coupling of reaction and dispersion grows long waves by
/// physics (NLS's modulational instability), not because the problem is ill-posed. So the
/// growth is that of the derivative terms, D(k) = L(k) - L(0), which is one field's rule
/// again for q = 1: with g(k) = max_j Re lambda_j(D(k)) over the spectrum entries the 2/3
/// rule keeps,
///   growth = t_end max_{k != 0} g(k)
/// e-folds; the system is ill-posed when growth > ln(amplification_limit). Adding a lap u_i
/// to every field's right-hand side shifts every eigenvalue of D(k) by -a |k|^2, so the least
/// such diffusion that brings the growth within the limit is
///   a = max(0, max_{k != 0} (g(k) - ln(limit) / t_end) / |k|^2).
/// A learned system's linear part is its operator's Jacobian along the initial fields
/// (pipeline/system_prediction.h): a slope along a second derivative that the data leave
/// undetermined can come out negative and diffuse that field backwards.

#include "pde/field_system.h"
#include "pde/system_etdrk4.h"

namespace bhpm::pde {

struct SystemWellPosedness {
  double growth = 0.0;     ///< e-folds over t_end
  double diffusion = 0.0;  ///< a >= 0 (0 when within the limit)
};

/// From `linear`'s symbol; throws std::invalid_argument unless t_end > 0 and
/// amplification_limit > 1.
SystemWellPosedness system_well_posedness(const SystemEtdrk4& linear, double t_end,
                                          double amplification_limit);

/// `system` with diffusion * (d^2/dx^2 [+ d^2/dy^2]) of each field added to its linear part.
FieldSystem with_added_diffusion(FieldSystem system, double diffusion);

}  // namespace bhpm::pde
