//! The CPU features the SIMD paths choose by, asked in this file only: the line splitter's
//! AVX2 loop ([`avx2_bmi1_popcnt`]), the JSON writer's VEX build ([`avx2_bmi_lzcnt`]), the
//! needle scan ([`avx2`]).

/// Whether the CPU has AVX2 (std caches the answer after the first question).
#[inline]
pub(crate) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX2, BMI1 and POPCNT (every AVX2 CPU has the other two).
#[inline]
pub(crate) fn avx2_bmi1_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        avx2()
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX2, BMI1, BMI2 and LZCNT.
#[inline]
pub(crate) fn avx2_bmi_lzcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        avx2()
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
