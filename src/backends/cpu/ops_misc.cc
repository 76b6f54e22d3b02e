// The misc op families register from here; each lives in its own ops_misc_*.cc.
#include "backends/cpu/ops_misc_internal.h"

namespace trinity {

void RegisterMiscOps(KernelRegistry& r) {
  RegisterMiscRnnOps(r);
  RegisterMiscQuantOps(r);
  RegisterMiscSignalOps(r);
}

}  // namespace trinity
