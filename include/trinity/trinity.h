// Trinity's public API: include this one header.
#pragma once

#include "trinity/buffer.h"
#include "trinity/device.h"
#include "trinity/dtype.h"
#include "trinity/model.h"
#include "trinity/npy.h"
#include "trinity/session.h"
#include "trinity/shape.h"
#include "trinity/status.h"
#include "trinity/tensor.h"
