// The cube instructions and register setters ascsim executes: the C++ API's overload sets (template
// parameters, defaults, argument order, per arch), each forwarding to the instruction table's operation
// (generated.h) with the call's source line. The engine validates and executes every call; nothing here
// computes data. Written for ascsim from the docs' prototypes and the C++ API's declarations
// (docs/cpp.md "Headers").
#pragma once

#include "ascsim/generated.h"
#include "ascsim/params.h"
#include "ascsim/tensor.h"

namespace AscendC {

namespace ascsim_detail {
template <class T, class U>
using SamePrim = typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type;
}  // namespace ascsim_detail

// ---- LoadData (LoadData_2D.md, LoadData_3D.md, the bit-mode and MX pages) --------------------------------
template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParamsV2& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParamsV2& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p);
}
template <class T, class U = T>
__aicore__ inline void LoadData(const LocalTensor<U>& dst, const LocalTensor<T>& src,
                                const LocalTensor<fp8_e8m0_t>& srcMx, const LoadData2DParamsV2& p,
                                const LoadData2DMxParams& mx, ASCSIM_SITE) {
    ::ascsim::op::load_data_mx(ascsim_site, dst, src, srcMx, p, mx);
}
template <class T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, class U = PrimT<T>,
          ascsim_detail::SamePrim<T, U> = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV1<U>& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p, defaultConfig);
}
template <class T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, class U = PrimT<T>,
          ascsim_detail::SamePrim<T, U> = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p, defaultConfig);
}
template <class T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, class U = PrimT<T>,
          ascsim_detail::SamePrim<T, U> = true>
__aicore__ inline void LoadDataWithStride(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LoadData3DParamsV2<U>& p, ASCSIM_SITE) {
    ::ascsim::op::load_data_with_stride(ascsim_site, dst, src, p, defaultConfig);
}
template <TPosition DstPos, TPosition SrcPos, class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Load3DBitModeParam& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p, ::ascsim::rt::None{}, DstPos, SrcPos);
}
template <class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p);
}
template <TPosition DstPos, TPosition SrcPos, class T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Load2DBitModeParam& p,
                                ASCSIM_SITE) {
    ::ascsim::op::load_data(ascsim_site, dst, src, p, ::ascsim::rt::None{}, DstPos, SrcPos);
}
template <class T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& p, ASCSIM_SITE) {
    ::ascsim::op::load_data_with_transpose(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParamsV2& p, ASCSIM_SITE) {
    ::ascsim::op::load_data_with_transpose(ascsim_site, dst, src, p);
}
template <class T = int8_t, class U = uint8_t,
          typename std::enable_if<std::is_same<PrimT<T>, int8_t>::value && std::is_same<PrimT<U>, uint8_t>::value,
                                  bool>::type = true>
__aicore__ inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LocalTensor<U>& idx, const LoadData2dParams& p, ASCSIM_SITE) {
    ::ascsim::op::load_data_with_sparse(ascsim_site, dst, src, idx, p);
}

// ---- Mmad (Mmad.md, MmadWithSparse.md, MmadMx.md) --------------------------------------------------------
template <class T, class U, class S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const MmadParams& p, ASCSIM_SITE) {
    ::ascsim::op::mmad(ascsim_site, dst, fm, filter, p);
}
template <class T, class U, class S, class V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const LocalTensor<V>& bias, const MmadParams& p, ASCSIM_SITE) {
    ::ascsim::op::mmad(ascsim_site, dst, fm, filter, p, bias);
}
template <class T = int32_t, class U = int8_t,
          typename std::enable_if<std::is_same<PrimT<T>, int32_t>::value && std::is_same<PrimT<U>, int8_t>::value,
                                  bool>::type = true>
__aicore__ inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                                      const LocalTensor<U>& filter, const MmadParams& p, ASCSIM_SITE) {
    ::ascsim::op::mmad_with_sparse(ascsim_site, dst, fm, filter, p);
}
template <class T, class U, class S>
__aicore__ inline void MmadMx(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                              const MmadParams& p, ASCSIM_SITE) {
    ::ascsim::op::mmad_mx(ascsim_site, dst, fm, filter, p);
}
template <class T, class U, class S, class V>
__aicore__ inline void MmadMx(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                              const LocalTensor<V>& bias, const MmadParams& p, ASCSIM_SITE) {
    ::ascsim::op::mmad_mx(ascsim_site, dst, fm, filter, p, bias);
}

// ---- DataCopy into and out of the cube's buffers (the DataCopy pages of 矩阵计算的搬入 / 搬出) ---------------
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
#if ASCSIM_ARCH_3510
template <class T, bool enableSmallC0 = false>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p, enableSmallC0);
}
template <class T, bool enableSmallC0 = false>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Dn2NzParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p, enableSmallC0);
}
#else
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
#endif
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
template <class T, class U, typename std::enable_if<!std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, count);
}
template <class T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, count);
}
template <class T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, count);
}
template <class T, class U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}
template <class T, class U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
                                ASCSIM_SITE) {
    ::ascsim::op::data_copy(ascsim_site, dst, src, p);
}

#if ASCSIM_ARCH_3510
template <class T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                                   const DataCopyPadExtParams<T>& pad, ASCSIM_SITE) {
    ::ascsim::op::data_copy_pad(ascsim_site, dst, src, p, pad, mode);
}
template <class T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                                   ASCSIM_SITE) {
    ::ascsim::op::data_copy_pad(ascsim_site, dst, src, p, ::ascsim::rt::None{}, mode);
}
#else
template <class T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                                   const DataCopyPadExtParams<T>& pad, ASCSIM_SITE) {
    ::ascsim::op::data_copy_pad(ascsim_site, dst, src, p, pad);
}
template <class T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                                   ASCSIM_SITE) {
    ::ascsim::op::data_copy_pad(ascsim_site, dst, src, p);
}
#endif
template <class T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>&, const GlobalTensor<T>&, const DataCopyParams&,
                                   const DataCopyPadParams&, ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("DataCopyPad(DataCopyParams, DataCopyPadParams) (the form before DataCopyExtParams)",
                               ascsim_site);
}
template <class T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>&, const LocalTensor<T>&, const DataCopyParams&, ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("DataCopyPad(DataCopyParams) (the form before DataCopyExtParams)", ascsim_site);
}

// ---- Fill / InitConstValue (Fill.md) -----------------------------------------------------------------------
template <class T, class U = PrimT<T>, ascsim_detail::SamePrim<T, U> = true>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, ASCSIM_SITE) {
    ::ascsim::op::init_const_value(ascsim_site, dst, p, "Fill");
}
template <class T, class U = PrimT<T>, ascsim_detail::SamePrim<T, U> = true>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, ASCSIM_SITE) {
    ::ascsim::op::init_const_value(ascsim_site, dst, p, "InitConstValue");
}

// ---- Fixpipe (Fixpipe（L0C到GM数据搬运）.md, …到L1…) ------------------------------------------------------------
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                               ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                               ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, class S = uint64_t,
          typename std::enable_if<std::is_same<PrimT<S>, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& p, ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config, cbufWorkspace);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, class S = uint64_t,
          typename std::enable_if<std::is_same<PrimT<S>, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& p, ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config, cbufWorkspace);
}
#if ASCSIM_ARCH_3510
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsArch3510<config.format>& p, ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsArch3510<config.format>& p, ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<uint64_t>& cbufWorkspace,
                               const FixpipeParamsArch3510<config.format>& p, ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config, cbufWorkspace);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<uint64_t>& cbufWorkspace,
                               const FixpipeParamsArch3510<config.format>& p, ASCSIM_SITE) {
    ::ascsim::op::fixpipe(ascsim_site, dst, src, p, config, cbufWorkspace);
}
#endif

// ---- registers (the 矩阵搬入辅助配置接口 and Fixpipe register pages, 原子操作) ----------------------------------
__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE], const FmatrixMode& mode,
                                  ASCSIM_SITE) {
    uint8_t pads[PAD_SIZE] = {padList[0], padList[1], padList[2], padList[3]};
    ::ascsim::op::set_fmatrix(ascsim_site, l1H, l1W, pads, mode);
}
__aicore__ inline void SetFmatrix(const SetFMatrixBitModeParams& p, const FmatrixMode& mode, ASCSIM_SITE) {
    ::ascsim::op::set_fmatrix_bitmode(ascsim_site, p, mode);
}
template <class T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue, ASCSIM_SITE) {
    ::ascsim::op::set_padding_value(ascsim_site, padValue, ::ascsim::rt::type_name<T>());
}
__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue, ASCSIM_SITE) {
    ::ascsim::op::set_load_data_boundary(ascsim_site, boundaryValue);
}
__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& p, ASCSIM_SITE) {
    ::ascsim::op::set_load_data_repeat(ascsim_site, p);
}
__aicore__ inline void SetLoadDataRepeatWithStride(const LoadDataRepeatParamWithStride& p, ASCSIM_SITE) {
    ::ascsim::op::set_load_data_repeat(ascsim_site, p);
}
template <class T>
__aicore__ inline void SetAtomicAdd(ASCSIM_SITE) {
    ::ascsim::op::set_atomic_add(ascsim_site, ::ascsim::rt::type_name<T>());
}
template <class T>
__aicore__ inline void SetAtomicMax(ASCSIM_SITE) {
    ::ascsim::op::set_atomic_max(ascsim_site, ::ascsim::rt::type_name<T>());
}
template <class T>
__aicore__ inline void SetAtomicMin(ASCSIM_SITE) {
    ::ascsim::op::set_atomic_min(ascsim_site, ::ascsim::rt::type_name<T>());
}
__aicore__ inline void SetAtomicNone(ASCSIM_SITE) { ::ascsim::op::set_atomic_none(ascsim_site); }
__aicore__ inline void DisableDmaAtomic(ASCSIM_SITE) { ::ascsim::op::set_atomic_none(ascsim_site); }
template <class T>
__aicore__ inline void SetAtomicType(ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("SetAtomicType", ascsim_site);
}
#if ASCSIM_ARCH_3510
__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride, ASCSIM_SITE) {
    ::ascsim::op::set_fixpipe_nz2nd_flag(ascsim_site, ndNum, srcNdStride, dstNdStride);
}
#else
__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride, ASCSIM_SITE) {
    ::ascsim::op::set_fixpipe_nz2nd_flag(ascsim_site, ndNum, srcNdStride, dstNdStride);
}
#endif
__aicore__ inline void SetFixpipePreQuantFlag(uint64_t config, ASCSIM_SITE) {
    ::ascsim::op::set_fixpipe_pre_quant_flag(ascsim_site, config);
}
template <class T>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre,
                                        bool isUnitFlag = false, ASCSIM_SITE) {
    ::ascsim::op::set_fixpipe_config(ascsim_site, quantPre, reluPre, isUnitFlag);
}
template <class T, bool setRelu = false>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false, ASCSIM_SITE) {
    if (setRelu)
        ::ascsim::rt::not_modelled("SetFixPipeConfig<T, setRelu = true> (a ReLU tensor)", ascsim_site);
    ::ascsim::op::set_fixpipe_config(ascsim_site, preData, ::ascsim::rt::None{}, isUnitFlag);
}
__aicore__ inline void SetFixPipeClipRelu(uint64_t, ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("SetFixPipeClipRelu", ascsim_site);
}
template <class T>
__aicore__ inline void SetFixPipeAddr(const LocalTensor<T>&, uint16_t, ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("SetFixPipeAddr", ascsim_site);
}

// ---- Mmad's mode registers (kernel_operator_mm_intf.h): HF32 on is refused by the engine; the layout
// transform is Mmad's issue order only (no byte effect, ascsim.isa.registers) --------------------------------
__aicore__ inline void SetHF32Mode(bool hf32Mode, ASCSIM_SITE) { ::ascsim::op::set_hf32_mode(ascsim_site, hf32Mode); }
__aicore__ inline void SetHF32Mode(HF32Mode mode, ASCSIM_SITE) {
    ::ascsim::op::set_hf32_mode(ascsim_site, mode == HF32Mode::ENABLE);
}
__aicore__ inline void SetHF32TransMode(bool hf32TransMode, ASCSIM_SITE) {
    ::ascsim::op::set_hf32_trans_mode(ascsim_site, hf32TransMode);
}
__aicore__ inline void SetHF32TransMode(HF32TransMode mode, ASCSIM_SITE) {
    ::ascsim::op::set_hf32_trans_mode(ascsim_site, mode == HF32TransMode::NEAREST_ZERO);
}
__aicore__ inline void SetMMLayoutTransform(bool mmLayoutMode, ASCSIM_SITE) {
    ::ascsim::op::set_mm_layout_transform(ascsim_site, mmLayoutMode);
}
__aicore__ inline void SetMMRowMajor(ASCSIM_SITE) { ::ascsim::op::set_mm_row_major(ascsim_site); }
__aicore__ inline void SetMMColumnMajor(ASCSIM_SITE) { ::ascsim::op::set_mm_column_major(ascsim_site); }

// Load3DSetFMatrixCal(l1H, l1W, padList): the C++ API's own helper behind SetFmatrix(..., FMATRIX_LEFT), which
// catlass calls directly (dav_c220/kernel_operator_mm_impl.h: it writes the left FMATRIX register).
__aicore__ inline void Load3DSetFMatrixCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE], ASCSIM_SITE) {
    uint8_t pads[PAD_SIZE] = {padList[0], padList[1], padList[2], padList[3]};
    ::ascsim::op::set_fmatrix(ascsim_site, l1H, l1W, pads, FmatrixMode::FMATRIX_LEFT);
}

}  // namespace AscendC
