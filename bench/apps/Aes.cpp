//===- Aes.cpp - AES-128 ECB encryption and decryption of a 48 MB image ---===//
//
// As in the paper's Table II: the RGB bytes of a 4096x4096 image (3 * 4096
// * 4096 bytes, 3M blocks of 16), one block per work-item, 192 work-items
// per group: 16,384 groups. aes-encrypt encrypts random bytes; aes-decrypt
// decrypts the encryption of random bytes (made here, by the reference
// cipher) and is checked against those bytes.
//
// The reference is a textbook, byte-by-byte AES-128 (FIPS-197): its S-box
// is derived from the field inverse and the affine map, not copied, so that
// it also checks the kernel's tables. It is itself checked against the
// example vector of FIPS-197 appendix C.1 before any problem is made.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

#include <stdexcept>

namespace skmd::bench {
namespace {

constexpr size_t BlockBytes = 16, KeyBytes = 16, Rounds = 10;
constexpr size_t RoundKeyBytes = BlockBytes * (Rounds + 1);
constexpr size_t Local = 192;

using Block = std::array<uint8_t, BlockBytes>;
using RoundKeys = std::array<uint8_t, RoundKeyBytes>;

/// Product in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, bit by bit.
uint8_t slowMul(uint8_t A, uint8_t B) {
  uint8_t P = 0;
  for (int I = 0; I < 8; ++I) {
    if (B & 1)
      P ^= A;
    A = uint8_t((A << 1) ^ (A & 0x80 ? 0x1b : 0));
    B >>= 1;
  }
  return P;
}

/// The field's tables, built once: products, the S-box and its inverse.
struct Tables {
  uint8_t Mul[256][256];
  uint8_t Sbox[256], InvSbox[256];

  Tables() {
    for (int A = 0; A < 256; ++A)
      for (int B = 0; B < 256; ++B)
        Mul[A][B] = slowMul(uint8_t(A), uint8_t(B));
    for (int X = 0; X < 256; ++X) {
      // The multiplicative inverse (0 for 0), then the affine map
      // b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63.
      uint8_t Inv = 0;
      for (int Y = 1; Y < 256 && X; ++Y)
        if (Mul[X][Y] == 1)
          Inv = uint8_t(Y);
      uint8_t S = 0x63;
      for (int R = 0; R < 5; ++R)
        S ^= uint8_t((Inv << R) | (Inv >> ((8 - R) & 7)));
      Sbox[X] = S;
      InvSbox[S] = uint8_t(X);
    }
  }
};

const Tables &tables() {
  static const Tables T;
  return T;
}

/// FIPS-197 section 5.2: the round keys, 16 bytes per round.
RoundKeys expandKey(const uint8_t *Key) {
  const Tables &T = tables();
  RoundKeys W;
  std::memcpy(W.data(), Key, KeyBytes);
  uint8_t Rcon = 1;
  for (size_t I = KeyBytes; I < RoundKeyBytes; I += 4) {
    uint8_t Temp[4] = {W[I - 4], W[I - 3], W[I - 2], W[I - 1]};
    if (I % KeyBytes == 0) {
      // RotWord, SubWord, then the round constant.
      uint8_t First = Temp[0];
      Temp[0] = uint8_t(T.Sbox[Temp[1]] ^ Rcon);
      Temp[1] = T.Sbox[Temp[2]];
      Temp[2] = T.Sbox[Temp[3]];
      Temp[3] = T.Sbox[First];
      Rcon = T.Mul[Rcon][2];
    }
    for (size_t J = 0; J < 4; ++J)
      W[I + J] = W[I + J - KeyBytes] ^ Temp[J];
  }
  return W;
}

// The state as FIPS-197 lays it out: byte r + 4c is row r of column c.
void addRoundKey(Block &S, const RoundKeys &W, size_t Round) {
  for (size_t I = 0; I < BlockBytes; ++I)
    S[I] ^= W[Round * BlockBytes + I];
}

void subBytes(Block &S, const uint8_t *Table) {
  for (uint8_t &B : S)
    B = Table[B];
}

/// Row r rotates left by r (Sign 1) or right by r (Sign -1).
void shiftRows(Block &S, int Sign) {
  Block In = S;
  for (int R = 0; R < 4; ++R)
    for (int C = 0; C < 4; ++C)
      S[R + 4 * C] = In[R + 4 * ((C + Sign * R + 4) % 4)];
}

/// Each column times the circulant matrix whose first row is \p M.
void mixColumns(Block &S, const std::array<uint8_t, 4> &M) {
  const Tables &T = tables();
  for (int C = 0; C < 4; ++C) {
    uint8_t *Col = &S[4 * C];
    uint8_t In[4] = {Col[0], Col[1], Col[2], Col[3]};
    for (int R = 0; R < 4; ++R) {
      uint8_t Sum = 0;
      for (int K = 0; K < 4; ++K)
        Sum ^= T.Mul[M[(K - R + 4) % 4]][In[K]];
      Col[R] = Sum;
    }
  }
}

const std::array<uint8_t, 4> Forward{2, 3, 1, 1}, Inverse{14, 11, 13, 9};

Block encryptBlock(Block S, const RoundKeys &W) {
  addRoundKey(S, W, 0);
  for (size_t Round = 1; Round <= Rounds; ++Round) {
    subBytes(S, tables().Sbox);
    shiftRows(S, 1);
    if (Round != Rounds)
      mixColumns(S, Forward);
    addRoundKey(S, W, Round);
  }
  return S;
}

/// FIPS-197 section 5.3, the inverse cipher.
Block decryptBlock(Block S, const RoundKeys &W) {
  addRoundKey(S, W, Rounds);
  for (size_t Round = Rounds; Round-- > 0;) {
    shiftRows(S, -1);
    subBytes(S, tables().InvSbox);
    addRoundKey(S, W, Round);
    if (Round != 0)
      mixColumns(S, Inverse);
  }
  return S;
}

Block blockFromHex(const char *Hex) {
  Block B;
  for (size_t I = 0; I < BlockBytes; ++I)
    B[I] = uint8_t(std::stoul(std::string(Hex + 2 * I, 2), nullptr, 16));
  return B;
}

/// FIPS-197 appendix C.1, both ways; throws when the reference is wrong,
/// since every check below would then be meaningless.
void checkReference() {
  static const bool Checked = [] {
    Block Key = blockFromHex("000102030405060708090a0b0c0d0e0f");
    Block Plain = blockFromHex("00112233445566778899aabbccddeeff");
    Block Cipher = blockFromHex("69c4e0d86a7b0430d8cdb78070b4c55a");
    RoundKeys W = expandKey(Key.data());
    if (encryptBlock(Plain, W) != Cipher || decryptBlock(Cipher, W) != Plain)
      throw std::runtime_error("aes: the C++ reference fails FIPS-197 C.1");
    return true;
  }();
  (void)Checked;
}

/// Every block of \p In through \p Cipher into \p Out.
template <typename CipherFn>
void eachBlock(const uint8_t *In, uint8_t *Out, size_t Blocks, CipherFn Cipher) {
  for (size_t I = 0; I < Blocks; ++I) {
    Block B;
    std::memcpy(B.data(), In + I * BlockBytes, BlockBytes);
    B = Cipher(B);
    std::memcpy(Out + I * BlockBytes, B.data(), BlockBytes);
  }
}

/// Buffers: 0 the input blocks, 1 the output blocks, 2 the round keys.
/// For decryption the input is the encryption of random bytes.
Problem aes(double Scale, std::mt19937 &Rng, bool Decrypt) {
  checkReference();
  size_t Blocks = scaled(3.0 * 4096 * 4096 / BlockBytes, Scale, 1);
  size_t Bytes = Blocks * BlockBytes;
  uint8_t Key[KeyBytes];
  for (uint8_t &B : Key)
    B = uint8_t(Rng());
  RoundKeys W = expandKey(Key);

  Problem P;
  P.Size = std::to_string(Bytes) + " bytes";
  auto Plain = std::make_shared<std::vector<uint8_t>>(Bytes);
  for (uint8_t &B : *Plain)
    B = uint8_t(Rng());
  if (Decrypt) {
    P.Buffers.push_back(inputOf<uint8_t>(Bytes, [](size_t) { return 0; }));
    eachBlock(Plain->data(), P.Buffers[0].Input.data(), Blocks,
              [&](const Block &B) { return encryptBlock(B, W); });
  } else {
    P.Buffers.push_back(inputOf<uint8_t>(Bytes, [&](size_t I) { return (*Plain)[I]; }));
    Plain.reset();
  }
  P.Buffers.push_back(output(Bytes, Compare::Exact));
  P.Buffers.push_back(inputOf<uint8_t>(RoundKeyBytes, [&](size_t I) { return W[I]; }));
  P.launch(Decrypt ? "aes_decrypt" : "aes_encrypt",
           {bufferArg(0), bufferArg(1), bufferArg(2), valueArg(uint32_t(Blocks))}, 1,
           {roundUp(Blocks, Local), 1, 1}, {Local, 1, 1});
  P.Reference = [Blocks, Bytes, W, Plain, Decrypt](const Problem &P, const Outputs &O) {
    if (Decrypt)
      return allExact(O[1].as<uint8_t>(), Bytes, "plaintext",
                      [&](size_t I) { return (*Plain)[I]; });
    std::vector<uint8_t> Want(Bytes);
    eachBlock(P.in<uint8_t>(0), Want.data(), Blocks,
              [&](const Block &B) { return encryptBlock(B, W); });
    return allExact(O[1].as<uint8_t>(), Bytes, "ciphertext",
                    [&](size_t I) { return Want[I]; });
  };
  return P;
}

Problem aesEncrypt(double Scale, std::mt19937 &Rng) { return aes(Scale, Rng, false); }
Problem aesDecrypt(double Scale, std::mt19937 &Rng) { return aes(Scale, Rng, true); }

AppRegistration EncryptRegistration({"aes-encrypt", "aes", aesEncrypt});
AppRegistration DecryptRegistration({"aes-decrypt", "aes", aesDecrypt});

} // namespace
} // namespace skmd::bench
