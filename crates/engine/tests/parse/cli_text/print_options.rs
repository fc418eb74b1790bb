//! The `--print-*` options: metric names instead of labels, rule details, all details and
//! metric instances, on real output copied from the corpus.

use sightline_engine::model::{RuleKind, SpeedupKind, Value};
use sightline_engine::parse::cli_text;
use sightline_testkit::load_truth;

#[test]
fn label_name_exports_give_metric_names() {
    let report = cli_text::parse(DETAILS_NAMES).unwrap();
    let r = &report.results[0];
    assert_eq!(r.process_id, Some(1287));
    let sol = &r.sections()[0];
    assert_eq!(sol.rows[0].label, "DRAM Frequency");
    assert_eq!(
        sol.rows[0].metric.name.as_deref(),
        Some("dram__cycles_elapsed.avg.per_second")
    );
    assert_eq!(sol.rows.len(), 10);
    let pm = r.section("PM Sampling").unwrap();
    let groups = pm.row("# Pass Groups").unwrap();
    assert_eq!(
        groups.metric.name.as_deref(),
        Some("profiler__pmsampler_pass_groups")
    );
    assert_eq!(groups.metric.value, Value::U64(1));
    // Every row names its metric and the labels are those the catalog knows.
    for s in r.sections() {
        for row in &s.rows {
            let name = row.metric.name.as_deref().unwrap();
            if let Some(known) = sightline_engine::model::catalog::metric_for(&s.name, &row.label) {
                assert_eq!(known, name);
            }
        }
    }
    assert_eq!(r.number("gpu__time_duration.sum"), Some(71_620.0));
}

#[test]
fn rule_details_give_focus_metrics() {
    let report = cli_text::parse(RULE_DETAILS).unwrap();
    let r = &report.results[0];
    let sol = &r.sections()[0];
    assert_eq!(sol.rows.len(), 10);
    assert_eq!(sol.rules.len(), 1);
    assert_eq!(
        sol.rules[0].focus_metrics,
        [(
            "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed".to_string(),
            78.531475
        )]
    );
    assert!(sol.rules[0].message.ends_with("(re)compute."));
    let occ = r.section("Occupancy").unwrap();
    assert_eq!(occ.rows.len(), 13);
    assert_eq!(occ.rules[0].speedup, Some((SpeedupKind::Local, 23.72)));
    assert_eq!(
        occ.rules[0].focus_metrics,
        [(
            "sm__warps_active.avg.pct_of_peak_sustained_active".to_string(),
            76.277562
        )]
    );
    let launch = r.section("Launch Statistics").unwrap();
    assert_eq!(launch.rows.len(), 17);
    assert!(report.warnings.is_empty());
}

#[test]
fn details_all_keeps_header_tables_and_rules() {
    let report = cli_text::parse(DETAILS_ALL).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let r = &report.results[0];
    let sol = &r.sections()[0];
    let labels: Vec<&str> = sol.rows.iter().map(|row| row.label.as_str()).collect();
    assert_eq!(labels.len(), 11);
    assert_eq!(labels[0], "DRAM Frequency");
    assert_eq!(labels[10], "Compute (SM) Throughput");
    assert!(!labels.contains(&"SM: Inst Executed Pipe Adu"));
    assert_eq!(sol.rules.len(), 1);
    assert_eq!(sol.rules[0].kind, RuleKind::Opt);
    assert!(
        sol.rules[0]
            .message
            .starts_with("Memory is more heavily utilized")
    );
    let roofline = &r.sections()[1];
    assert_eq!(roofline.name, "GPU Speed Of Light Roofline Chart");
    assert_eq!(roofline.rows.len(), 4);
    // Body tables are kept as metrics, keyed by section, table and label.
    let adu = r
        .metric(
            "GPU Speed Of Light Throughput/Compute Throughput Breakdown/SM: Inst Executed Pipe Adu",
        )
        .unwrap();
    assert_eq!(adu.value, Value::Double(33.65));
    let ffma = r
        .metric("GPU Speed Of Light Roofline Chart/Floating Point Operations Roofline/Theoretical Predicated-On FFMA Operations")
        .unwrap();
    assert_eq!(ffma.value, Value::U64(33_792));
}

#[test]
fn instanced_values_keep_their_instances() {
    let report = cli_text::parse(DETAILS_INSTANCES).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let r = &report.results[0];
    let per_reg = r
        .metric(
            "Occupancy/Impact of Varying Register Count Per Thread/% Occupancy Per Register Count",
        )
        .unwrap();
    assert_eq!(per_reg.value, Value::U64(8524));
    assert_eq!(per_reg.unit, "%/register");
    // Instances wrap over many lines inside the value column; compare with the oracle.
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    let t = &truth[0].metrics["derived__pct_occupancy_per_register_count"];
    assert_eq!(per_reg.instances.len(), t.n_instances.unwrap());
    for (got, (_, want)) in per_reg.instances.iter().zip(&t.instances) {
        assert_eq!(got.id, None);
        assert_eq!(got.value.as_f64(), want.as_f64());
    }
    let per_block = r
        .metric("Occupancy/Impact of Varying Block Size/% Occupancy Per Block Size")
        .unwrap();
    let t = &truth[0].metrics["derived__pct_occupancy_per_block_size"];
    assert_eq!(per_block.instances.len(), t.n_instances.unwrap());
    let block = r
        .metric("Occupancy/Impact of Varying Block Size/Block Size")
        .unwrap();
    assert_eq!(block.value, Value::U64(256));
    assert_eq!(block.instances.len(), 1);
}

/// Real output copied from the corpus (`kernels_full.details_names.txt, first lines`).
const DETAILS_NAMES: &str = r##"[1287] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0

    NVTX Push/Pop Stack for Thread 1287:
      <default domain>
        <0,elementwise>
    Warning: Data collection happened without fixed GPU frequencies. Profiling results may be inconsistent.
    Section: GPU Speed Of Light Throughput
    ------------------------------------------------------------------------------------ ----------- ------------
    Metric Name                                                                          Metric Unit Metric Value
    ------------------------------------------------------------------------------------ ----------- ------------
    DRAM Frequency (dram__cycles_elapsed.avg.per_second)                                         Ghz         2.62
    SM Frequency (gpc__cycles_elapsed.avg.per_second)                                            Ghz         1.97
    Elapsed Cycles (gpc__cycles_elapsed.max)                                                   cycle      141,717
    Memory Throughput (gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed)           %        79.68
    DRAM Throughput (gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed)                       %        79.68
    Duration (gpu__time_duration.sum)                                                             us        71.62
    L1/TEX Cache Throughput (l1tex__throughput.avg.pct_of_peak_sustained_active)                   %        15.53
    L2 Cache Throughput (lts__throughput.avg.pct_of_peak_sustained_elapsed)                        %        79.49
    SM Active Cycles (sm__cycles_active.avg)                                                   cycle   136,607.76
    Compute (SM) Throughput (sm__throughput.avg.pct_of_peak_sustained_elapsed)                     %        33.65
    ------------------------------------------------------------------------------------ ----------- ------------

    OPT   Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the    
          DRAM bottleneck. Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the       
          bytes transferred. Also consider whether it is possible to do more work per memory access (kernel fusion) or  
          whether there are values you can (re)compute.                                                                 

    Section: GPU Speed Of Light Roofline Chart
    INF   The ratio of peak float (FP32) to double (FP64) performance on this device is 2:1. The workload achieved      
          close to 0% of this device's FP32 peak performance and 0% of its FP64 peak performance. See the Profiling     
          Guide (https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html#roofline) for more details on         
          roofline analysis.                                                                                            

    Section: PM Sampling
    ------------------------------------------------------------- ----------- ------------
    Metric Name                                                   Metric Unit Metric Value
    ------------------------------------------------------------- ----------- ------------
    Maximum Buffer Size (profiler__pmsampler_buffer_size_bytes)         Mbyte        29.95
    Maximum Sampling Interval (profiler__pmsampler_interval_time)          us         1.50
    # Pass Groups (profiler__pmsampler_pass_groups)                                      1
    ------------------------------------------------------------- ----------- ------------
"##;

/// Real output copied from the corpus (`kernels_basic.rule_details.txt, first result`).
const RULE_DETAILS: &str = r##"[1842] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Warning: Data collection happened without fixed GPU frequencies. Profiling results may be inconsistent.
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    DRAM Frequency                  Ghz         2.62
    SM Frequency                    Ghz         1.98
    Elapsed Cycles                cycle      143,826
    Memory Throughput                 %        78.53
    DRAM Throughput                   %        78.53
    Duration                         us        72.64
    L1/TEX Cache Throughput           %        15.46
    L2 Cache Throughput               %        78.23
    SM Active Cycles              cycle   137,191.05
    Compute (SM) Throughput           %        33.22
    ----------------------- ----------- ------------

    OPT   Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the    
          DRAM bottleneck. Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the       
          bytes transferred. Also consider whether it is possible to do more work per memory access (kernel fusion) or  
          whether there are values you can (re)compute.                                                                 

          > Key Performance Indicators: Use the guidance related to these metrics to increase performance.
          ---------------------------------- ----------------------- ---------------------------------------------------------
          Metric Name                        Value                   Guidance                                                 
          ---------------------------------- ----------------------- ---------------------------------------------------------
          gpu__compute_memory_throughput.avg 78.531475               78.531 - 33.217 >= 10.000                                
          .pct_of_peak_sustained_elapsed                                                                                      

    Section: Launch Statistics
    -------------------------------- --------------- ---------------
    Metric Name                          Metric Unit    Metric Value
    -------------------------------- --------------- ---------------
    Block Size                                                   256
    Cluster Scheduling Policy                           PolicySpread
    Cluster Size                                                   0
    Function Cache Configuration                     CachePreferNone
    Grid Size                                                 65,536
    Registers Per Thread             register/thread              16
    Shared Memory Configuration Size           Kbyte           32.77
    Driver Shared Memory Per Block       Kbyte/block            1.02
    Dynamic Shared Memory Per Block       byte/block               0
    Static Shared Memory Per Block        byte/block               0
    # SMs                                         SM             132
    Stack Size                                                 1,024
    Threads                                   thread      16,777,216
    # TPCs                                                        66
    Enabled TPC IDs                                              all
    Uses Green Context                                             0
    Waves Per SM                                               62.06
    -------------------------------- --------------- ---------------

    Section: Occupancy
    ------------------------------- ----------- ------------
    Metric Name                     Metric Unit Metric Value
    ------------------------------- ----------- ------------
    Max Active Clusters                 cluster            0
    Max Cluster Size                      block            8
    Overall GPU Occupancy                     %            0
    Cluster Occupancy                         %            0
    Block Limit Barriers                  block           32
    Block Limit SM                        block           32
    Block Limit Registers                 block           16
    Block Limit Shared Mem                block           32
    Block Limit Warps                     block            8
    Theoretical Active Warps per SM        warp           64
    Theoretical Occupancy                     %          100
    Achieved Occupancy                        %        76.28
    Achieved Active Warps Per SM           warp        48.82
    ------------------------------- ----------- ------------

    OPT   Est. Local Speedup: 23.72%                                                                                    
          The difference between calculated theoretical (100.0%) and measured achieved occupancy (76.3%) can be the     
          result of warp scheduling overheads or workload imbalances during the kernel execution. Load imbalances can   
          occur between warps within a block as well as across blocks of the same kernel. See the CUDA Best Practices   
          Guide (https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy) for more details on     
          optimizing occupancy.                                                                                         

          > Key Performance Indicators: Use the guidance related to these metrics to increase performance.
          ---------------------------------- ----------------------- ---------------------------------------------------------
          Metric Name                        Value                   Guidance                                                 
          ---------------------------------- ----------------------- ---------------------------------------------------------
          sm__warps_active.avg.pct_of_peak_s 76.277562               Increase the achieved occupancy towards the theoretical  
          ustained_active                                            limit (100.0%)                                           

"##;

/// Real output copied from the corpus (`kernels_full.details_all.txt, first sections`).
pub(super) const DETAILS_ALL: &str = r##"[1287] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0

    NVTX Push/Pop Stack for Thread 1287:
      <default domain>
        <0,elementwise>
    Warning: Data collection happened without fixed GPU frequencies. Profiling results may be inconsistent.
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    DRAM Frequency                  Ghz         2.62
    SM Frequency                    Ghz         1.97
    Elapsed Cycles                cycle      141,717
    Memory Throughput                 %        79.68
    DRAM Throughput                   %        79.68
    Duration                         us        71.62
    L1/TEX Cache Throughput           %        15.53
    Waves Per SM                               62.06
    L2 Cache Throughput               %        79.49
    SM Active Cycles              cycle   136,607.76
    Compute (SM) Throughput           %        33.65
    ----------------------- ----------- ------------

    GPU Throughput Chart
    Table Name : GPU Throughput
    ---------------- ----------- ------------
    Metric Name      Metric Unit Metric Value
    ---------------- ----------- ------------
    Memory [%]                 %        79.68
    Compute (SM) [%]           %        33.65
    ---------------- ----------- ------------

    GPU Throughput Breakdown
    Table Name : Compute Throughput Breakdown
    ------------------------------------------------------------------------- ----------- ------------
    Metric Name                                                               Metric Unit Metric Value
    ------------------------------------------------------------------------- ----------- ------------
    SM: Inst Executed Pipe Adu                                                          %        33.65
    IDC: Request Cycles Active                                                          %        28.06
    SM: Issue Active                                                                    %        14.01
    SM: Mio Inst Issued                                                                 %        14.01
    SM: Inst Executed                                                                   %        14.00
    SM: Inst Executed Pipe Lsu                                                          %        11.20
    SM: Pipe Fmaheavy Cycles Active                                                     %         9.82
    SM: Mio2rf Writeback Active                                                         %         5.60
    SM: Pipe Fma Cycles Active                                                          %         5.60
    SM: Inst Executed Pipe Cbu Pred On Any                                              %         2.87
    SM: Mio Pq Read Cycles Active                                                       %         2.80
    SM: Mio Pq Write Cycles Active                                                      %         2.80
    SM: Pipe Alu Cycles Active                                                          %         1.40
    SM: Inst Executed Pipe Ipa                                                          %            0
    SM: Inst Executed Pipe Tex                                                          %            0
    SM: Inst Executed Pipe Uniform                                                      %            0
    SM: Inst Executed Pipe Xu                                                           %            0
    SM: Instruction Throughput Internal Activity                                        %            0
    SM: Memory Throughput Internal Activity                                             %            0
    SM: Pipe Fp64 Cycles Active                                                         %            0
    SM: Pipe Shared Cycles Active                                                       %            0
    SM: Pipe Tensor Cycles Active                                                       %            0
    SM: Pipe Tensor Op Dmma Cycles Active                                               %            0
    SM: Pipe Tensor Type Hmma Hgmma Qgmma Imma Igmma Bmma Bgmma Cycles Active           %            0
    SM: Pipe Tma Cycles Active                                                          %            0
    ------------------------------------------------------------------------- ----------- ------------

    Table Name : Memory Throughput Breakdown
    -------------------------------------------------------- ----------- ------------
    Metric Name                                              Metric Unit Metric Value
    -------------------------------------------------------- ----------- ------------
    DRAM: Cycles Active                                                %        79.68
    DRAM: Dram Sectors                                                 %        61.06
    L2: D Sectors                                                      %        44.72
    L2: D Sectors Fill Device                                          %        42.86
    L2: T Sectors                                                      %        32.51
    L2: Xbar2lts Cycles Active                                         %        32.12
    L2: T Tag Requests                                                 %        31.76
    GPU: Compute Memory Access Throughput Internal Activity            %        31.22
    L2: Lts2xbar Cycles Active                                         %        21.55
    L1: M L1tex2xbar Req Cycles Active                                 %        14.96
    L1: Data Pipe Lsu Wavefronts                                       %        12.52
    L1: Lsuin Requests                                                 %        11.20
    L1: Lsu Writeback Active                                           %         8.40
    L1: M Xbar2l1tex Read Sectors                                      %         5.60
    L1: Data Bank Reads                                                %         4.20
    L1: Data Bank Writes                                               %         4.20
    L1: Texin Sm2tex Req Cycles Active                                 %         0.01
    GPU: Compute Memory Request Throughput Internal Activity           %            0
    L1: Data Pipe Tex Wavefronts                                       %            0
    L1: F Wavefronts                                                   %            0
    L1: M Xbar2l1tex Read Sectors Mem Dshared                          %            0
    L1: Tex Writeback Active                                           %            0
    L1: Tmain Requests                                                 %            0
    L2: D Atomic Input Cycles Active                                   %            0
    L2: D Decomp Input Sectors                                         %            0
    L2: D Sectors Fill Sysmem                                          %            0
    -------------------------------------------------------- ----------- ------------

    OPT   Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the    
          DRAM bottleneck. Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the       
          bytes transferred. Also consider whether it is possible to do more work per memory access (kernel fusion) or  
          whether there are values you can (re)compute.                                                                 

    Section: GPU Speed Of Light Roofline Chart
    ----------------------------------------------------------- ----------- ------------
    Metric Name                                                 Metric Unit Metric Value
    ----------------------------------------------------------- ----------- ------------
    Theoretical Predicated-On DFMA Thread Instructions Executed  inst/cycle        8,448
    Theoretical Predicated-On FFMA Thread Instructions Executed  inst/cycle       16,896
    Predicated-On DFMA Thread Instructions Executed Per Cycle    inst/cycle            0
    Predicated-On FFMA Thread Instructions Executed Per Cycle    inst/cycle            0
    ----------------------------------------------------------- ----------- ------------

    GPU Throughput Rooflines
    Table Name : Floating Point Operations Roofline
    Single Precision Roofline
    Peak Work
    ----------------------------------------- ----------- ------------
    Metric Name                               Metric Unit Metric Value
    ----------------------------------------- ----------- ------------
    Theoretical Predicated-On FFMA Operations        inst       33,792
    SM Frequency                                      Ghz         1.98
    ----------------------------------------- ----------- ------------

"##;

/// Real output copied from the corpus (`kernels_basic.details_instances.txt, kernel line and Occupancy tables`).
const DETAILS_INSTANCES: &str = r##"[1842] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: Occupancy
    % Occupancy Graphs
    Table Name : Impact of Varying Register Count Per Thread
    ------------------------------ --------------- ------------------------------
    Metric Name                        Metric Unit                   Metric Value
    ------------------------------ --------------- ------------------------------
    % Occupancy Per Register Count      %/register     8,524 (100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                      100; 100; 100; 100; 75; 75;
                                                      75; 75; 75; 75; 75; 75; 62;
                                                      62; 62; 62; 62; 62; 62; 62;
                                                      50; 50; 50; 50; 50; 50; 50;
                                                      50; 50; 50; 50; 50; 50; 50;
                                                      50; 50; 37; 37; 37; 37; 37;
                                                      37; 37; 37; 37; 37; 37; 37;
                                                      37; 37; 37; 37; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                              12; 12; 12; 12; 12)
    Registers Per Thread           register/thread                        16 (16)
    ------------------------------ --------------- ------------------------------

    Table Name : Impact of Varying Block Size
    -------------------------- ----------- ------------------------------
    Metric Name                Metric Unit                   Metric Value
    -------------------------- ----------- ------------------------------
    % Occupancy Per Block Size           %   5,706 (50; 50; 50; 100; 100;
                                                98; 98; 100; 100; 93; 93;
                                                93; 93; 98; 98; 100; 100;
                                              98; 98; 93; 93; 85; 85; 93;
                                              93; 81; 81; 87; 87; 93; 93;
                                                100; 100; 79; 79; 84; 84;
                                              89; 89; 93; 93; 98; 98; 68;
                                              68; 71; 71; 75; 75; 78; 78;
                                              81; 81; 84; 84; 87; 87; 90;
                                            90; 93; 93; 96; 96; 100; 100)
    Block Size                                                  256 (256)
    -------------------------- ----------- ------------------------------

"##;
