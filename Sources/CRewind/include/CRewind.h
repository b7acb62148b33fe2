// What Swift cannot say itself: for the Rewind module a C builtin, a thread variable, a tree node's digest
// slot, and calls into the value witnesses of an enum type (the functions the Swift runtime's own
// reflection uses to read an enum's case); for RewindLog the processor's SHA-256 and CRC-32C instructions.
#ifndef CREWIND_H
#define CREWIND_H

#include <stddef.h>
#include <stdint.h>

/// Asks the processor to bring the cache line holding `address` in, without waiting for it: a hint, which
/// never faults, whatever the address.
static inline void rewind_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// 1 when this processor has the x86 SHA extensions (with SSSE3 and SSE4.1), so that
/// `rewind_sha256_compress_hardware` may be called; 0 otherwise, and always 0 on other architectures.
int rewind_sha256_hardware_available(void);

/// Compresses `count` whole 64-byte blocks at `blocks` into the SHA-256 hash value `state` (H0…H7) with
/// the x86 SHA instructions. Call only when `rewind_sha256_hardware_available()` returned 1.
void rewind_sha256_compress_hardware(uint32_t state[8], const void *blocks, size_t count);

/// Whether `rewind_crc32c_update` can run here: the processor has a CRC-32C instruction (SSE 4.2 on
/// x86-64, the CRC extension on 64-bit ARM).
int rewind_crc32c_available(void);

/// The CRC-32C register after `count` bytes at `bytes`, from `crc` (no inversion before or after: the
/// caller does those), with the processor's instruction. Call only when `rewind_crc32c_available()`.
uint32_t rewind_crc32c_update(uint32_t crc, const void *bytes, size_t count);

/// The draw session of the reduce running on this thread (see Rewind's DrawSession), or null. A thread
/// variable rather than a task-local value: a reduce never suspends, and setting this costs two stores.
extern _Thread_local void *rewind_current_draw_session __attribute__((tls_model("initial-exec")));

static inline void *rewind_draw_session(void) { return rewind_current_draw_session; }

static inline void rewind_set_draw_session(void *session) { rewind_current_draw_session = session; }

// The digest slot of a persistent tree node (Rewind's TreeNode+Digest.swift): the address of the node's
// cached digest lanes, its lowest bit set while they are valid. In C so that the operations stay one
// call each in the Swift optimizer's view of the tree's descents (Synchronization's `Atomic` inlined
// there made them too big to be inlined themselves) and a few instructions each once compiled.

/// The slot's word, loaded with acquiring order.
static inline uintptr_t rewind_digest_slot_load(const uintptr_t *slot) {
  return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

/// Clears the valid bit, keeping the address. Only for a node referenced by one owner, which nothing else
/// reads meanwhile: a relaxed load and store, no read-modify-write.
static inline void rewind_digest_slot_invalidate(uintptr_t *slot) {
  __atomic_store_n(slot, __atomic_load_n(slot, __ATOMIC_RELAXED) & ~(uintptr_t)1, __ATOMIC_RELAXED);
}

/// Clears the valid bit and sets the reshaped bit (2), keeping the address: the node's values are about
/// to move, so the element digests its lanes were made of no longer match their positions. Only for a
/// node referenced by one owner, like `rewind_digest_slot_invalidate`.
static inline void rewind_digest_slot_mark_reshaped(uintptr_t *slot) {
  __atomic_store_n(slot, (__atomic_load_n(slot, __ATOMIC_RELAXED) & ~(uintptr_t)1) | 2, __ATOMIC_RELAXED);
}

/// Stores `word` (relaxed). Only for a node referenced by one owner.
static inline void rewind_digest_slot_store(uintptr_t *slot, uintptr_t word) {
  __atomic_store_n(slot, word, __ATOMIC_RELAXED);
}

/// Replaces the word `expected` with `desired` (acquiring and releasing); 0 when the slot held another.
static inline int rewind_digest_slot_replace(uintptr_t *slot, uintptr_t expected, uintptr_t desired) {
  return __atomic_compare_exchange_n(slot, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// The value witness table of a type, as the Swift ABI lays it out (swift/ABI/ValueWitness.def): the
// common witnesses, then, when the flags say so, the three enum witnesses. Its address is the word
// before the type's metadata. The witnesses use the Swift calling convention.
typedef unsigned (*rewind_get_enum_tag_fn)(const void *value, const void *type) __attribute__((swiftcall));
typedef void (*rewind_project_enum_fn)(void *value, const void *type) __attribute__((swiftcall));
typedef void (*rewind_inject_enum_tag_fn)(void *value, unsigned tag, const void *type) __attribute__((swiftcall));

struct rewind_value_witnesses {
  const void *initializeBufferWithCopyOfBuffer;
  const void *destroy;
  const void *initializeWithCopy;
  const void *assignWithCopy;
  const void *initializeWithTake;
  const void *assignWithTake;
  const void *getEnumTagSinglePayload;
  const void *storeEnumTagSinglePayload;
  size_t size;
  size_t stride;
  uint32_t flags;
  uint32_t extraInhabitantCount;
  // Present only when `flags` has REWIND_HAS_ENUM_WITNESSES.
  rewind_get_enum_tag_fn getEnumTag;
  rewind_project_enum_fn destructiveProjectEnumData;
  rewind_inject_enum_tag_fn destructiveInjectEnumTag;
};

/// The flag of a value witness table that has the enum witnesses.
#define REWIND_HAS_ENUM_WITNESSES 0x00200000u

static inline const struct rewind_value_witnesses *rewind_value_witnesses_of(const void *type) {
  return ((const struct rewind_value_witnesses *const *)type)[-1];
}

/// Whether the type whose metadata is `type` is an enum (or an optional): whether it has enum witnesses.
static inline int rewind_is_enum(const void *type) {
  return (rewind_value_witnesses_of(type)->flags & REWIND_HAS_ENUM_WITNESSES) != 0;
}

/// The metadata kind of `type`: 0x200 a struct, 0x201 an enum, 0x202 an optional, 0x301 a tuple; a class
/// or another kind otherwise.
static inline uintptr_t rewind_metadata_kind(const void *type) { return *(const uintptr_t *)type; }

/// The case of the enum value at `value`, an enum of type `type`: payload cases first, in declaration
/// order, then the cases without one (the order Mirror's field list follows).
static inline unsigned rewind_enum_tag(const void *value, const void *type) {
  return rewind_value_witnesses_of(type)->getEnumTag(value, type);
}

/// Turns the enum value at `value` into its payload in place: tag bits cleared, the payload (or, for an
/// indirect case, the reference to its box) left at the start.
static inline void rewind_enum_project(void *value, const void *type) {
  rewind_value_witnesses_of(type)->destructiveProjectEnumData(value, type);
}

/// Undoes ``rewind_enum_project``: turns the payload at `value` back into the enum value of case `tag`.
static inline void rewind_enum_inject(void *value, unsigned tag, const void *type) {
  rewind_value_witnesses_of(type)->destructiveInjectEnumTag(value, tag, type);
}

// The metadata of a tuple type (swift/ABI/Metadata.h): its elements' types and offsets; labels, when the
// tuple has them, are a separate string that does not change the layout.
struct rewind_tuple_element {
  const void *type;
  // A size on Apple platforms, 32 bits elsewhere (with the word's other half undefined): compare 32 bits.
  size_t offset;
};

struct rewind_tuple_metadata {
  uintptr_t kind;
  size_t count;
  const char *labels;
  struct rewind_tuple_element elements[];
};

/// Whether `a` and `b` are tuple types with the same element types at the same offsets, whatever their
/// labels: `(from: Int, to: Int)` and `(Int, Int)` are stored alike.
static inline int rewind_same_tuple_layout(const void *a, const void *b) {
  if (rewind_metadata_kind(a) != 0x301 || rewind_metadata_kind(b) != 0x301) return 0;
  const struct rewind_tuple_metadata *left = (const struct rewind_tuple_metadata *)a;
  const struct rewind_tuple_metadata *right = (const struct rewind_tuple_metadata *)b;
  if (left->count != right->count) return 0;
  for (size_t index = 0; index < left->count; index++) {
    if (left->elements[index].type != right->elements[index].type) return 0;
    if ((uint32_t)left->elements[index].offset != (uint32_t)right->elements[index].offset) return 0;
  }
  return 1;
}

#endif
