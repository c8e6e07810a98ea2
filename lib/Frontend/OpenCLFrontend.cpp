//===- OpenCLFrontend.cpp - OpenCL C to LLVM IR through Clang -------------===//
#include "Frontend/OpenCLFrontend.h"

#include "support/DeviceFeatures.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Config/config.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;

namespace skmd {

namespace {

/// The triple the kernels are analyzed for: SPIR supports every optional
/// OpenCL 3.0 feature, so Clang accepts images and pipes there and SKMD's own
/// diagnostic, not a target-dependent Clang error, tells the user why the
/// kernel is rejected.
constexpr const char *AnalysisTriple = "spir64-unknown-unknown";

std::string defaultResourceDir() {
#ifdef SKMD_CLANG_RESOURCE_DIR
  return SKMD_CLANG_RESOURCE_DIR;
#else
  return "";
#endif
}

/// Clang's -cl-ext for \p Opts: the extensions of its variants (and the
/// OpenCL C 3.0 features) and no others, whatever the triple predefines, so
/// that every variant sees the same macros and the platform reports what
/// they say.
std::string openCLExtensionsArg(const FrontendOptions &Opts) {
  std::string Arg = "-cl-ext=-all";
  for (const std::string &E : extensionsFor(Opts.Variants))
    Arg += ",+" + E;
  if (Opts.CLStd == "CL2.0" || Opts.CLStd == "CL3.0")
    for (const char *F : DeviceOpenCLC30Features)
      Arg += ",+" + std::string(F);
  // Clang's own language extensions, not the device's: kernels that take a
  // bool or size_t argument built before -all, and still do.
  Arg += ",+__cl_clang_function_pointers,+__cl_clang_variadic_functions,"
         "+__cl_clang_non_portable_kernel_param_types,+__cl_clang_bitfields";
  return Arg;
}

std::vector<std::string> cc1Args(const FrontendOptions &Opts,
                                 llvm::StringRef Triple) {
  std::string ResourceDir =
      Opts.ResourceDir.empty() ? defaultResourceDir() : Opts.ResourceDir;
  std::vector<std::string> Args = {
      "-triple", Triple.str(), "-x", "cl", "-cl-std=" + Opts.CLStd,
      // Builtin declarations come from Clang's table; the small base header
      // brings types and macros. Together they are what the clang driver
      // uses by default and parse much faster than the full opencl-c.h.
      "-finclude-default-header", "-fdeclare-opencl-builtins",
      "-resource-dir", ResourceDir, "-internal-isystem",
      ResourceDir + "/include",
      // Optimize later, per target, in our own pipeline; but do not mark
      // functions optnone at -O0 so our passes may still transform them.
      "-O" + std::to_string(Opts.OptLevel), "-disable-llvm-passes",
      "-disable-O0-optnone", "-ffp-contract=on",
      // Argument names in the IR, for the passes' printers and for users.
      "-cl-kernel-arg-info",
      // A plain `inline` function is a definition, as OpenCL drivers
      // take it: under C99's rules Clang emits none, and a call it does
      // not inline (any at -O0) was left an undefined symbol that failed
      // only when the x86 variant loaded (SHOC's md5).
      "-fgnu89-inline",
      // Kernels and SKMD's x86 builtins library are both compiled for the
      // baseline x86-64 calling convention (wide vectors in memory), so
      // their calls agree whatever CPU the code generator targets; and
      // the builtins are all inlined. Clang's warning that AVX would change
      // that convention is therefore noise to the user.
      "-Wno-psabi",
      // Clang 16 made incompatible pointer conversions errors; OpenCL
      // drivers' compilers (PoCL's, the vendors') take them with a warning,
      // and kernels in the wild rely on it (a float8* from a float*).
      "-Wno-error=incompatible-pointer-types"};
  Args.push_back(openCLExtensionsArg(Opts));
  Args.push_back("-D__OPENCL_VERSION__=" + std::to_string(DeviceOpenCLVersion));
  // The SPIR triples predefine it; SKMD's devices have no images.
  Args.push_back("-U__IMAGE_SUPPORT__");
  if (!Opts.Diagnostics && llvm::errs().has_colors())
    Args.push_back("-fcolor-diagnostics");
  if (Opts.WarningsAsErrors)
    Args.push_back("-Werror");
  if (Opts.NoWarnings)
    Args.push_back("-w");
  for (const std::string &D : Opts.Defines)
    Args.push_back("-D" + D);
  for (const std::string &I : Opts.IncludeDirs) {
    Args.push_back("-I");
    Args.push_back(I);
  }
  Args.push_back(Opts.InputPath);
  return Args;
}

/// A CompilerInstance whose diagnostics print like clang's, to stderr or
/// Opts.Diagnostics. Without \p Warnings, errors only.
class Compiler {
public:
  Compiler(const FrontendOptions &Opts, llvm::StringRef Triple, bool Warnings = true) {
    auto VFS = llvm::vfs::getRealFileSystem();
    auto *Printer = new TextDiagnosticPrinter(
        Opts.Diagnostics ? *Opts.Diagnostics : llvm::errs(), DiagOpts);
    Diags = CompilerInstance::createDiagnostics(*VFS, DiagOpts, Printer,
                                                /*ShouldOwnClient=*/true);
    Invocation = std::make_shared<CompilerInvocation>();
    std::vector<std::string> Args = cc1Args(Opts, Triple);
    std::vector<const char *> Argv;
    for (const std::string &A : Args)
      Argv.push_back(A.c_str());
    Valid = CompilerInvocation::CreateFromArgs(*Invocation, Argv, *Diags,
                                               "skmd-cc");
    Instance = std::make_unique<CompilerInstance>(Invocation);
    Instance->createDiagnostics(Printer, /*ShouldOwnClient=*/false);
    // "N errors generated." goes with the diagnostics, not to stderr.
    if (Opts.Diagnostics)
      Instance->setVerboseOutputStream(*Opts.Diagnostics);
    if (!Warnings)
      Instance->getDiagnostics().setIgnoreAllWarnings(true);
  }

  /// Runs the action; false (with diagnostics already printed) on failure.
  bool run(FrontendAction &Action) {
    if (!Valid || Diags->hasErrorOccurred())
      return false;
    bool Ok = Instance->ExecuteAction(Action);
    return Ok && !Instance->getDiagnostics().hasErrorOccurred();
  }

private:
  DiagnosticOptions DiagOpts;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags;
  std::shared_ptr<CompilerInvocation> Invocation;
  std::unique_ptr<CompilerInstance> Instance;
  bool Valid = false;
};

llvm::Error compileFailed(const FrontendOptions &Opts) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "compilation of '" + Opts.InputPath +
                                     "' failed");
}

/// Names the OpenCL feature a type needs that SKMD cannot run, if any.
const char *unsupportedFeature(QualType T) {
  // Look through pointers and arrays: an array of images is still images.
  for (;;) {
    if (const auto *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    else if (T->isPointerType())
      T = T->getPointeeType();
    else
      break;
  }
  if (T->isImageType())
    return "images";
  if (T->isPipeType() || T->isReserveIDT())
    return "pipes";
  if (T->isQueueT() || T->isClkEventT() || T->isBlockPointerType())
    return "device-side enqueue";
  return nullptr;
}

AddressSpace addressSpaceOf(LangAS AS) {
  switch (AS) {
  case LangAS::opencl_global:
  case LangAS::opencl_global_device:
  case LangAS::opencl_global_host:
    return AddressSpace::Global;
  case LangAS::opencl_constant:
    return AddressSpace::Constant;
  case LangAS::opencl_local:
    return AddressSpace::Local;
  case LangAS::opencl_generic:
    return AddressSpace::Generic;
  default:
    return AddressSpace::Private;
  }
}

/// OpenCL's name of a scalar builtin type; null for others.
const char *openCLScalarName(const BuiltinType &B) {
  switch (B.getKind()) {
  case BuiltinType::Bool:
  case BuiltinType::Char_U:
  case BuiltinType::UChar:
    return "uchar";
  case BuiltinType::Char_S:
  case BuiltinType::SChar:
    return "char";
  case BuiltinType::Short:
    return "short";
  case BuiltinType::UShort:
    return "ushort";
  case BuiltinType::Int:
    return "int";
  case BuiltinType::UInt:
    return "uint";
  case BuiltinType::Long:
    return "long";
  case BuiltinType::ULong:
    return "ulong";
  case BuiltinType::Half:
  case BuiltinType::Float16:
    return "half";
  case BuiltinType::Float:
    return "float";
  case BuiltinType::Double:
    return "double";
  default:
    return nullptr;
  }
}

/// \p T with typedefs resolved, in OpenCL's spelling ("uchar", "float4",
/// "struct particle"), as clGetKernelArgInfo's base type would name it.
std::string openCLBaseTypeName(QualType T, const PrintingPolicy &Policy) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *B = T->getAs<BuiltinType>())
    if (const char *Name = openCLScalarName(*B))
      return Name;
  if (const auto *V = T->getAs<VectorType>())
    return openCLBaseTypeName(V->getElementType(), Policy) +
           std::to_string(V->getNumElements());
  if (const RecordDecl *R = T->getAsRecordDecl()) {
    std::string Name = R->getName().str();
    if (Name.empty())
      if (const TypedefNameDecl *TD = R->getTypedefNameForAnonDecl())
        Name = TD->getName().str();
    if (!Name.empty())
      return (R->isUnion() ? "union " : "struct ") + Name;
  }
  if (const auto *E = T->getAs<EnumType>())
    return openCLBaseTypeName(E->getDecl()->getIntegerType(), Policy);
  return T.getAsString(Policy);
}

/// \p T as clGetKernelArgInfo's type name spells it: a typedef by its name
/// ("uint", "float4", "DATA_TYPE"), a type written without one in OpenCL's
/// spelling ("unsigned int" is "uint"), as Clang's kernel_arg_type has it.
std::string openCLTypeName(QualType T, const PrintingPolicy &Policy) {
  T = T.getUnqualifiedType();
  if (isa<TypedefType>(T.getTypePtr()))
    return T.getAsString(Policy);
  return openCLBaseTypeName(T, Policy);
}

/// Appends the scalars of \p T at byte \p Offset to \p Out, merging runs
/// of one type; false where a part is not plain data (a pointer, a bit-field)
/// or the layout grows past MaxScalarRuns.
bool appendLayout(QualType T, uint64_t Offset, const ASTContext &Ctx,
                  std::vector<ScalarRun> &Out) {
  T = T.getCanonicalType();
  auto Push = [&](const char *Type, uint64_t Count) {
    if (!Out.empty() && Out.back().Type == Type &&
        Out.back().Offset + Out.back().Count * scalarTypeBytes(Type) == Offset) {
      Out.back().Count += Count;
      return true;
    }
    Out.push_back({Offset, Type, Count});
    return Out.size() <= MaxScalarRuns;
  };
  if (const auto *B = T->getAs<BuiltinType>()) {
    const char *Name = openCLScalarName(*B);
    return Name && Push(Name, 1);
  }
  if (const auto *E = T->getAs<EnumType>())
    return appendLayout(E->getDecl()->getIntegerType(), Offset, Ctx, Out);
  if (const auto *V = T->getAs<VectorType>()) {
    const auto *B = V->getElementType()->getAs<BuiltinType>();
    const char *Name = B ? openCLScalarName(*B) : nullptr;
    return Name && Push(Name, V->getNumElements());
  }
  if (const ConstantArrayType *A = Ctx.getAsConstantArrayType(T)) {
    QualType Elem = A->getElementType().getCanonicalType();
    uint64_t ElemBytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
    uint64_t N = A->getZExtSize();
    if (N == 0)
      return true; // A zero-length array (GNU) holds no scalars.
    const auto *B = Elem->getAs<BuiltinType>();
    if (const char *Name = B ? openCLScalarName(*B) : nullptr)
      return Push(Name, N); // Scalars: one run, whatever the length.
    for (uint64_t I = 0; I < N; ++I, Offset += ElemBytes)
      if (!appendLayout(Elem, Offset, Ctx, Out))
        return false;
    return true;
  }
  if (const RecordDecl *R = T->getAsRecordDecl()) {
    const RecordDecl *Def = R->getDefinition();
    if (!Def)
      return false;
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(Def);
    for (const FieldDecl *F : Def->fields()) {
      if (F->isBitField() || F->isZeroSize(Ctx))
        return false;
      uint64_t At = Offset + L.getFieldOffset(F->getFieldIndex()) / 8;
      if (!appendLayout(F->getType(), At, Ctx, Out))
        return false;
      if (Def->isUnion())
        break; // A union's data is read as its first member.
    }
    return true;
  }
  return false;
}

/// The layout of \p T, or none where appendLayout gives up.
std::vector<ScalarRun> layoutOf(QualType T, const ASTContext &Ctx) {
  std::vector<ScalarRun> Out;
  if (T->isIncompleteType() || !appendLayout(T, 0, Ctx, Out))
    Out.clear();
  return Out;
}

std::array<uint32_t, 3> dims(const ASTContext &Ctx, const Expr *X,
                             const Expr *Y, const Expr *Z) {
  std::array<uint32_t, 3> Out{0, 0, 0};
  const Expr *E[3] = {X, Y, Z};
  for (int I = 0; I < 3; ++I)
    if (E[I])
      if (auto V = E[I]->getIntegerConstantExpr(Ctx))
        Out[I] = static_cast<uint32_t>(V->getZExtValue());
  return Out;
}

/// Collects the kernels' signatures and reports unsupported features.
class KernelCollector : public ASTConsumer,
                        public RecursiveASTVisitor<KernelCollector> {
public:
  KernelCollector(DiagnosticsEngine &Diags, std::vector<KernelInfo> &Out)
      : Diags(Diags), Out(Out) {
    UnsupportedID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "SKMD does not support OpenCL %0 (used here through type %1)");
    BlockID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "SKMD does not support OpenCL device-side enqueue (block literal)");
  }

  void HandleTranslationUnit(ASTContext &C) override {
    Ctx = &C;
    TraverseDecl(C.getTranslationUnitDecl());
    reportReachableUses();
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Outer = Current;
    Current = FD->getCanonicalDecl();
    bool Ok = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Outer;
    return Ok;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *Callee = dyn_cast<FunctionDecl>(E->getDecl()))
      Calls[Current].insert(Callee->getCanonicalDecl());
    return true;
  }

  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    checkType(D->getType(), D->getLocation());
    return true;
  }

  bool VisitExpr(Expr *E) {
    if (!E->getType().isNull())
      checkType(E->getType(), E->getExprLoc());
    return true;
  }

  bool VisitBlockExpr(BlockExpr *E) {
    Uses.push_back({Current, E->getExprLoc(), "device-side enqueue", QualType(), true});
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<DeviceKernelAttr>() && FD->doesThisDeclarationHaveABody()) {
      Out.push_back(describeKernel(FD));
      Kernels.push_back(FD->getCanonicalDecl());
    }
    return true;
  }

private:
  /// A use of a feature SKMD cannot run, in a function (null: at file
  /// scope).
  struct Use {
    const FunctionDecl *In;
    SourceLocation Loc;
    const char *Feature;
    QualType Type;
    bool Block;
  };

  void checkType(QualType T, SourceLocation Loc) {
    if (const char *Feature = unsupportedFeature(T))
      Uses.push_back({Current, Loc, Feature, T.getUnqualifiedType(), false});
  }

  /// Reports the uses in code a kernel may run: at file scope, or in a
  /// function the kernels call, directly or not. A helper no kernel calls
  /// (an image filter beside the kernels in a shared file) is never
  /// compiled into a variant, so it refuses nothing.
  void reportReachableUses() {
    std::set<const FunctionDecl *> Reachable(Kernels.begin(), Kernels.end());
    std::vector<const FunctionDecl *> Work = Kernels;
    while (!Work.empty()) {
      const FunctionDecl *F = Work.back();
      Work.pop_back();
      for (const FunctionDecl *Callee : Calls[F])
        if (Reachable.insert(Callee).second)
          Work.push_back(Callee);
    }
    // One error per feature: the first use explains it; more would be noise.
    std::set<std::string> Reported;
    for (const Use &U : Uses) {
      if (U.In && !Reachable.count(U.In))
        continue;
      if (!Reported.insert(U.Feature).second)
        continue;
      if (U.Block)
        Diags.Report(U.Loc, BlockID);
      else
        Diags.Report(U.Loc, UnsupportedID) << U.Feature << U.Type;
    }
  }

  KernelInfo describeKernel(const FunctionDecl *FD) {
    KernelInfo K;
    K.Name = FD->getNameAsString();
    PrintingPolicy Policy(Ctx->getLangOpts());
    for (const ParmVarDecl *P : FD->parameters()) {
      KernelArg A;
      A.Name = P->getNameAsString();
      QualType T = P->getType();
      A.Size = Ctx->getTypeSizeInChars(T).getQuantity();
      if (T->isPointerType()) {
        QualType Pointee = T->getPointeeType();
        A.Space = addressSpaceOf(Pointee.getAddressSpace());
        A.Kind = A.Space == AddressSpace::Constant ? ArgKind::ConstantBuffer
                 : A.Space == AddressSpace::Local  ? ArgKind::LocalBuffer
                                                   : ArgKind::GlobalBuffer;
        A.ElementSize = Pointee->isIncompleteType()
                            ? 0
                            : Ctx->getTypeSizeInChars(Pointee).getQuantity();
        // As clGetKernelArgInfo reports it: __constant memory is const.
        A.IsConst = Pointee.isConstQualified() ||
                    A.Space == AddressSpace::Constant;
        A.IsVolatile = Pointee.isVolatileQualified();
        A.IsRestrict = T.isRestrictQualified();
        A.TypeName = openCLTypeName(Pointee, Policy) + "*";
        A.BaseTypeName = openCLBaseTypeName(Pointee, Policy) + "*";
        A.Layout = layoutOf(Pointee, *Ctx);
      } else {
        A.Kind = T->isSamplerT() ? ArgKind::Sampler : ArgKind::Scalar;
        // The type qualifiers clGetKernelArgInfo reports are the
        // pointee's: a value's own const is none of the caller's business.
        A.TypeName = openCLTypeName(T, Policy);
        A.BaseTypeName = openCLBaseTypeName(T, Policy);
        if (A.Kind == ArgKind::Scalar)
          A.Layout = layoutOf(T, *Ctx);
      }
      K.Args.push_back(std::move(A));
    }
    if (const auto *R = FD->getAttr<ReqdWorkGroupSizeAttr>())
      K.ReqdWorkGroupSize = dims(*Ctx, R->getXDim(), R->getYDim(), R->getZDim());
    if (const auto *H = FD->getAttr<WorkGroupSizeHintAttr>())
      K.WorkGroupSizeHint = dims(*Ctx, H->getXDim(), H->getYDim(), H->getZDim());
    if (const auto *V = FD->getAttr<VecTypeHintAttr>())
      K.VecTypeHint = openCLTypeName(V->getTypeHint(), Policy);
    return K;
  }

  DiagnosticsEngine &Diags;
  std::vector<KernelInfo> &Out;
  ASTContext *Ctx = nullptr;
  unsigned UnsupportedID = 0, BlockID = 0;
  const FunctionDecl *Current = nullptr;
  std::vector<const FunctionDecl *> Kernels;
  std::map<const FunctionDecl *, std::set<const FunctionDecl *>> Calls;
  std::vector<Use> Uses;
};

class KernelCollectAction : public ASTFrontendAction {
public:
  KernelCollectAction(std::vector<KernelInfo> &Out, std::vector<std::string> &Files)
      : Out(Out), Files(Files) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<KernelCollector>(CI.getDiagnostics(), Out);
  }

  /// The files the source read: the main one and its headers.
  void EndSourceFileAction() override {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      Files.push_back(It->first.getName().str());
    // The source manager's map iterates in the order of its file entries'
    // addresses: sorted, the bundle is the same from run to run (Rodinia's
    // SRAD, a kernel and a header, came out in either order).
    llvm::sort(Files);
  }

private:
  std::vector<KernelInfo> &Out;
  std::vector<std::string> &Files;
};

/// \p Path's name relative to \p Dir when it lies inside it, else its own
/// name.
std::string nameUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  llvm::SmallString<256> Abs(Path), Base(Dir);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::fs::make_absolute(Base);
  llvm::sys::path::remove_dots(Abs, true);
  llvm::sys::path::remove_dots(Base, true);
  llvm::StringRef Rel(Abs);
  if (!Base.empty() && Rel.consume_front(Base) && llvm::sys::path::is_separator(Rel.front()))
    return Rel.drop_front().str();
  return llvm::sys::path::filename(Path).str();
}

} // namespace

std::vector<std::string> describeOptions(const FrontendOptions &Opts) {
  std::vector<std::string> Out = {"-cl-std=" + Opts.CLStd,
                                  "-O" + std::to_string(Opts.OptLevel)};
  if (Opts.WarningsAsErrors)
    Out.push_back("-Werror");
  if (Opts.NoWarnings)
    Out.push_back("-w");
  for (const std::string &D : Opts.Defines)
    Out.push_back("-D" + D);
  return Out;
}

llvm::Expected<std::vector<KernelInfo>>
analyzeKernels(const FrontendOptions &Opts, BundleSource *Source) {
  std::vector<KernelInfo> Kernels;
  std::vector<std::string> Files;
  Compiler C(Opts, AnalysisTriple);
  KernelCollectAction Action(Kernels, Files);
  if (!C.run(Action))
    return compileFailed(Opts);
  if (Source) {
    std::string ResourceDir =
        Opts.ResourceDir.empty() ? defaultResourceDir() : Opts.ResourceDir;
    llvm::StringRef MainDir = llvm::sys::path::parent_path(Opts.InputPath);
    Source->Main = llvm::sys::path::filename(Opts.InputPath).str();
    Source->Options = describeOptions(Opts);
    for (const std::string &Path : Files) {
      // Clang's own headers belong to whichever compiler builds it.
      if (!ResourceDir.empty() && llvm::StringRef(Path).starts_with(ResourceDir))
        continue;
      auto Text = llvm::MemoryBuffer::getFile(Path);
      if (!Text)
        continue;
      std::string Name = Path == Opts.InputPath ? Source->Main : nameUnder(Path, MainDir);
      Source->Files.emplace_back(Name, (*Text)->getBuffer().str());
    }
  }
  return Kernels;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
compileToIR(const FrontendOptions &Opts, llvm::StringRef Triple,
            llvm::LLVMContext &Ctx) {
  // analyzeKernels has shown the source's warnings once; each target's
  // build repeated them (four times for a bundle).
  Compiler C(Opts, Triple, /*Warnings=*/false);
  EmitLLVMOnlyAction Action(&Ctx);
  if (!C.run(Action))
    return compileFailed(Opts);
  std::unique_ptr<llvm::Module> M = Action.takeModule();
  if (!M)
    return compileFailed(Opts);
  return M;
}

} // namespace skmd
