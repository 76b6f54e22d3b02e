#include "backends/cpu/kernel.h"

namespace trinity {

void RegisterMiscOps(KernelRegistry& r) { (void)r; }

}  // namespace trinity
